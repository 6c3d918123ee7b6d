import { useState } from 'react';
import { useApiClient, useConnection } from '../../app/model-context.js';

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
      <SignOutEverywhere />
    </section>
  );
}

/**
 * Sessions survive daemon restarts, so signing every window out is an explicit act (a shared screen, a
 * URL pasted somewhere): a new URL token and no sessions left. This window signs in again with the new URL.
 */
function SignOutEverywhere() {
  const client = useApiClient();
  const [state, setState] = useState<{ busy: boolean; message: string | null }>({ busy: false, message: null });
  const rotate = async () => {
    if (!window.confirm('Sign every Fermix window and browser tab out? Open windows will need the new address; this one signs in again by itself.')) return;
    setState({ busy: true, message: null });
    try {
      const { url, revoked_sessions } = await client.call('system.rotate_token');
      setState({ busy: false, message: `Signed out ${revoked_sessions} session(s). Signing this window in again…` });
      window.location.href = url;
    } catch (error) {
      setState({ busy: false, message: `Could not sign out: ${(error as Error).message}` });
    }
  };
  return (
    <div className="settings-row">
      <button type="button" className="danger" disabled={state.busy} onClick={() => void rotate()}>Sign out every window</button>
      {state.message && <p role="status" className="muted small">{state.message}</p>}
    </div>
  );
}

function formatUptime(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
