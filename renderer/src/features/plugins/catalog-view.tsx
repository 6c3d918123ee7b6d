import { useId, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { ComputerUseCard } from './computer-use-card.js';
import { PluginCard, effectiveStatus } from './plugin-card.js';
import type { CatalogEntry, PluginState, PluginsState } from './store.js';

/** dev_local plugins have no catalog entry: a card is made from their state, marked Development by PluginCard. */
function devLocalEntries(states: Record<string, PluginState>, dir: string | undefined): CatalogEntry[] {
  return Object.values(states).filter((state) => state.source === 'dev_local').map((state) => ({
    name: state.name, display_name: state.name, description: `Unsigned development plugin from ${dir ?? 'dev_local'}.`, category: 'development',
    auth_type: state.auth_type ?? 'none', auth_provider: null, rails: (state.rail ?? 'http').split(','), latest: state.version ?? '0.0.0', bundled: false,
    versions: state.version ? [state.version] : [], installed: state.version ?? '0.0.0', developer_name: 'You (dev_local)', runtime_kind: null,
  }));
}

type Filter = 'all' | 'ready' | 'setup' | 'installed' | 'available';

const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All plugins' },
  { value: 'ready', label: 'Ready' },
  { value: 'setup', label: 'Needs setup' },
  { value: 'installed', label: 'Installed' },
  { value: 'available', label: 'Not installed' },
];

/** Search and filter over the catalog, then one card per plugin (and the Computer Use setup card). */
export function CatalogView({ store }: { store: StoreApi<PluginsState> }) {
  const catalog = useStore(store, (s) => s.catalog);
  const states = useStore(store, (s) => s.states);
  const loaded = useStore(store, (s) => s.loaded);
  const trustDevKey = useStore(store, (s) => s.trustDevKey);
  const devLocal = useStore(store, (s) => s.devLocal);
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const ids = { search: useId(), filter: useId() };
  const words = query.trim().toLowerCase();
  const shown = [...catalog, ...devLocalEntries(states, devLocal?.dir)].filter((entry) => {
    const status = effectiveStatus(entry, states[entry.name]);
    if (filter === 'ready' && status !== 'ready') return false;
    if (filter === 'setup' && (status === 'ready' || status === 'not_installed' || status === 'disabled')) return false;
    if (filter === 'installed' && entry.installed === null) return false;
    if (filter === 'available' && entry.installed !== null) return false;
    return words === '' || [entry.name, entry.display_name, entry.description, entry.category].some((text) => text.toLowerCase().includes(words));
  });
  const computerShown = filter === 'all' && (words === '' || 'computer use desktop'.includes(words));
  return (
    <>
      <p className="muted">Signed plugins from the catalog that ships with Fermix. Installing verifies the signature first; enabling one applies on the next turn.</p>
      {trustDevKey && <p className="small plugin-missing" role="note">This Fermix trusts the development signing key (<code>[fermix_core.plugins] trust_dev_key = true</code>): fine for development, not for daily use.</p>}
      {devLocal && (
        <div className="small plugin-missing" role="note">
          <p>Unsigned development plugins are loaded from <code>{devLocal.dir}</code> (<code>[fermix_core.plugins] dev_local</code>).</p>
          {devLocal.refusals.length > 0 && (
            <ul className="plugin-dev-refusals">
              {devLocal.refusals.map((refusal) => <li key={refusal.folder}>Refused {refusal.folder} — {refusal.code} ({refusal.field}): {refusal.message}</li>)}
            </ul>
          )}
        </div>
      )}
      <form className="plugin-filters" role="search" aria-label="Search the catalog" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor={ids.search}>Search</label>
          <input id={ids.search} type="search" value={query} placeholder="Name, description or category" onChange={(event) => setQuery(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.filter}>Show</label>
          <select id={ids.filter} value={filter} onChange={(event) => setFilter(event.target.value as Filter)}>
            {FILTERS.map((each) => <option key={each.value} value={each.value}>{each.label}</option>)}
          </select>
        </div>
      </form>
      <p className="muted small" role="status">{loaded ? `${shown.length + (computerShown ? 1 : 0)} shown` : 'Loading the catalog…'}</p>
      <div className="plugin-grid">
        {shown.map((entry) => <PluginCard key={entry.name} entry={entry} store={store} />)}
        {computerShown && <ComputerUseCard store={store} />}
      </div>
      {loaded && shown.length === 0 && !computerShown && <p className="empty">No plugin matches this search.</p>}
    </>
  );
}
