import { useEffect, useId, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import { ErrorNotice } from '../../app/error-notice.js';
import { useApiClient } from '../../app/model-context.js';
import { McpSection } from '../mcp/mcp-section.js';
import { CatalogView } from './catalog-view.js';
import { createPluginsStore } from './store.js';

type Tab = 'catalog' | 'mcp';

/** The Plugins place: the signed catalog's setup cards, and beside them the operator's MCP servers. */
export function PluginsScreen() {
  const client = useApiClient();
  // The screen's own store: it lives while the screen is open and re-reads everything when it opens.
  const store = useMemo(() => createPluginsStore(client), [client]);
  const error = useStore(store, (s) => s.error);
  const [tab, setTab] = useState<Tab>('catalog');
  const ids = { catalog: useId(), mcp: useId() };
  useEffect(() => {
    void store.getState().load();
    return client.subscribe((event) => {
      if (event.type === 'plugins.install_progress') store.getState().applyProgress(event.payload as Parameters<ReturnType<typeof store.getState>['applyProgress']>[0]);
    });
  }, [client, store]);
  const onKey = (event: React.KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next: Tab = tab === 'catalog' ? 'mcp' : 'catalog';
    setTab(next);
    document.getElementById(`${ids[next]}-tab`)?.focus();
  };
  return (
    <section className="screen plugins-screen" aria-labelledby="plugins-title">
      <h1 id="plugins-title">Plugins</h1>
      <div className="plugins-tabs" role="tablist" aria-label="Plugins and MCP servers" onKeyDown={onKey}>
        <button type="button" role="tab" id={`${ids.catalog}-tab`} aria-selected={tab === 'catalog'} aria-controls={ids.catalog} tabIndex={tab === 'catalog' ? 0 : -1} onClick={() => setTab('catalog')}>
          Catalog
        </button>
        <button type="button" role="tab" id={`${ids.mcp}-tab`} aria-selected={tab === 'mcp'} aria-controls={ids.mcp} tabIndex={tab === 'mcp' ? 0 : -1} onClick={() => setTab('mcp')}>
          MCP servers
        </button>
      </div>
      {error && <ErrorNotice error={error} />}
      {tab === 'catalog' ? (
        <div role="tabpanel" id={ids.catalog} aria-labelledby={`${ids.catalog}-tab`}>
          <CatalogView store={store} />
        </div>
      ) : (
        <div role="tabpanel" id={ids.mcp} aria-labelledby={`${ids.mcp}-tab`}>
          <McpSection />
        </div>
      )}
    </section>
  );
}
