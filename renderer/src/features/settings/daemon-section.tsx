import { useConnection } from '../../app/model-context.js';

export function DaemonSection() {
  const status = useConnection((state) => state.status);
  const refresh = useConnection((state) => state.refresh);
  return (
    <section className="settings-section" id="settings-daemon" aria-labelledby="settings-daemon-title">
      <h2 id="settings-daemon-title">This daemon</h2>
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
    </section>
  );
}

function formatUptime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
