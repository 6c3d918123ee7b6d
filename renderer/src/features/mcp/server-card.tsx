import { useEffect, useId, useState } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { ErrorNotice } from '../../app/error-notice.js';
import { Icon } from '../../ui/icons.js';
import { ServerTools } from './server-tools.js';
import { SignInNotice } from './sign-in-notice.js';
import type { McpServer, McpState } from './store.js';

const STATUS: Record<McpServer['status'], { label: string; tone: string }> = {
  connecting: { label: 'Connecting', tone: 'muted' },
  ready: { label: 'Ready', tone: 'ok' },
  retrying: { label: 'Retrying', tone: 'warn' },
  quarantined: { label: 'Quarantined', tone: 'bad' },
  disabled: { label: 'Disabled', tone: 'muted' },
  needs_auth: { label: 'Needs sign-in', tone: 'warn' },
};

/** One `[mcp.servers]` entry: live status, tools, its last stderr lines, and what the owner can do to it. */
export function ServerCard({ server, store }: { server: McpServer; store: StoreApi<McpState> }) {
  const busy = useStore(store, (s) => s.busy[server.name]);
  const error = useStore(store, (s) => s.errors[server.name]);
  const tools = useStore(store, (s) => s.tools[server.name]);
  const logs = useStore(store, (s) => s.logs[server.name]);
  const authUrl = useStore(store, (s) => s.authUrls[server.name]);
  const actions = store.getState();
  const [open, setOpen] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);
  const titleId = useId();
  const panelId = useId();
  const status = STATUS[server.status];
  const enabled = server.status !== 'disabled';
  // The poll brings new counts and states; the open details follow them.
  useEffect(() => {
    if (open) void store.getState().loadDetails(server.name);
  }, [open, store, server.name, server.status, server.tool_count, server.changed_tools.length]);
  return (
    <article className="card mcp-server" aria-labelledby={titleId} data-server={server.name}>
      <div className="plugin-card-head">
        <div className="plugin-card-title">
          <h2 id={titleId}>{server.name}</h2>
          <p className="muted small">
            {server.transport === 'stdio' ? 'Local process (stdio)' : 'Streamable HTTP'} · {server.tool_count} {server.tool_count === 1 ? 'tool' : 'tools'}
            {server.pid !== null && <> · pid {server.pid}</>}
            {server.attempts > 1 && <> · attempt {server.attempts}</>}
          </p>
        </div>
        <span className={`badge plugin-badge plugin-badge-${status.tone}`} data-status={server.status}>{status.label}</span>
      </div>
      {server.remote && (
        <p className="plugin-consent leaves hosted"><Icon name="warning" size={14} /><span>Remote server: what the agent sends to its tools leaves this machine.</span></p>
      )}
      {server.status === 'needs_auth' ? (
        <SignInNotice server={server.name} busy={busy} authUrl={authUrl} onSignIn={() => void actions.signIn(server.name)} />
      ) : (
        server.last_error && <p className="small plugin-missing">Last error: {server.last_error}</p>
      )}
      {server.changed_tools.length > 0 && (
        <div className="mcp-pins" role="alert">
          <p className="small">
            <strong>{server.name} changed the definition of {server.changed_tools.join(', ')}.</strong> The changed tools are blocked until you accept the new definitions.
          </p>
          <div className="actions">
            <button type="button" className="primary" disabled={busy !== undefined} onClick={() => void actions.answerPins(server.name, 'repin')}>Accept the new definitions</button>
            <button type="button" className="danger" disabled={busy !== undefined} onClick={() => void actions.answerPins(server.name, 'block')}>Keep them blocked</button>
          </div>
        </div>
      )}
      {error && <ErrorNotice error={error} onDismiss={() => actions.clearError(server.name)} />}
      <div className="actions plugin-actions">
        <button type="button" role="switch" className="switch" aria-checked={enabled} aria-label={`${server.name} enabled`} disabled={busy !== undefined} onClick={() => void actions.setEnabled(server.name, !enabled)}>
          <span className="switch-track" aria-hidden="true"><span className="switch-thumb" /></span>
          {enabled ? 'Enabled' : 'Disabled'}
        </button>
        <button type="button" disabled={busy !== undefined} onClick={() => void actions.restart(server.name)} aria-label={`Restart ${server.name}`}>
          {busy === 'Restarting…' ? busy : 'Restart'}
        </button>
        <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
          {open ? 'Hide tools and log' : 'Tools and log'}
        </button>
        {confirmRemove ? (
          <>
            <button type="button" className="danger" disabled={busy !== undefined} onClick={() => void actions.remove(server.name)}>Remove {server.name} from config.toml</button>
            <button type="button" onClick={() => setConfirmRemove(false)}>Keep it</button>
          </>
        ) : (
          <button type="button" className="danger" disabled={busy !== undefined} onClick={() => setConfirmRemove(true)} aria-label={`Remove ${server.name}`}>Remove</button>
        )}
      </div>
      {open && (
        <div className="plugin-panel" id={panelId}>
          <ServerTools server={server.name} tools={tools} busy={busy !== undefined} onHidden={(tool, hidden) => void actions.setHidden(server.name, tool, hidden)} />
          <h3 className="mcp-log-title">Last lines of its log (stderr and lifecycle)</h3>
          {logs && logs.length > 0 ? <pre className="mcp-log" tabIndex={0} aria-label={`Log of ${server.name}`}>{logs.join('\n')}</pre> : <p className="muted small">Nothing logged yet.</p>}
        </div>
      )}
    </article>
  );
}
