import { useConnection } from '../../app/model-context.js';

/** Read-only facts about the running daemon; editable settings arrive with the settings API. */
export function SettingsScreen() {
  const status = useConnection((state) => state.status);
  const refresh = useConnection((state) => state.refresh);
  return (
    <section className="screen" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      <h2>This daemon</h2>
      {status ? (
        <dl className="facts">
          <dt>Version</dt>
          <dd>{status.version}</dd>
          <dt>Process</dt>
          <dd>pid {status.pid}, up {formatUptime(status.uptime_s)}</dd>
          <dt>Home</dt>
          <dd><code>{status.home}</code></dd>
          <dt>Browser address</dt>
          <dd>{status.http_url ? <code>{status.http_url}</code> : 'not serving HTTP'}</dd>
          <dt>Control socket</dt>
          <dd><code>{status.socket}</code></dd>
        </dl>
      ) : (
        <p className="placeholder">Waiting for the daemon to answer…</p>
      )}
      <button type="button" onClick={() => void refresh()}>Refresh daemon status</button>
      <p className="placeholder">
        Editing providers, permissions and the sandbox from this screen arrives with the settings API; today they
        live in <code>config.toml</code> in the home above.
      </p>
    </section>
  );
}

function formatUptime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
