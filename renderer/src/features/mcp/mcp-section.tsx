import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { ErrorNotice } from '../../app/error-notice.js';
import { useApiClient } from '../../app/model-context.js';
import { AddServerForm } from './add-server-form.js';
import { ServerCard } from './server-card.js';
import { createMcpStore, POLL_MS } from './store.js';

/** The operator's own MCP servers (`[mcp.servers]` in config.toml), beside the plugin catalog. */
export function McpSection() {
  const client = useApiClient();
  const store = useMemo(() => createMcpStore(client), [client]);
  const servers = useStore(store, (s) => s.servers);
  const loaded = useStore(store, (s) => s.loaded);
  const error = useStore(store, (s) => s.error);
  const adding = useStore(store, (s) => s.busy['(new)'] !== undefined);
  const addError = useStore(store, (s) => s.errors['(new)']);
  useEffect(() => {
    void store.getState().load();
    // No mcp.* events exist (decision 0020), so the open section polls for live status.
    const timer = setInterval(() => void store.getState().load(), POLL_MS);
    return () => clearInterval(timer);
  }, [store]);
  return (
    <div className="mcp-section">
      <p className="muted">MCP servers you added yourself. Their tools join the agent's as <code>mcp_server_tool</code>; a changed tool definition is blocked until you accept it.</p>
      {error && <ErrorNotice error={error} />}
      <p className="muted small" role="status">{loaded ? `${servers.length} ${servers.length === 1 ? 'server' : 'servers'}` : 'Loading the servers…'}</p>
      <div className="plugin-grid mcp-grid">
        {servers.map((server) => <ServerCard key={server.name} server={server} store={store} />)}
      </div>
      {loaded && servers.length === 0 && <p className="empty">No MCP servers yet. Add one below, or import your editor's with <code>fermix mcp import</code>.</p>}
      {addError && <ErrorNotice error={addError} onDismiss={() => store.getState().clearError('(new)')} />}
      <AddServerForm busy={adding} onAdd={(input) => store.getState().add(input)} />
    </div>
  );
}
