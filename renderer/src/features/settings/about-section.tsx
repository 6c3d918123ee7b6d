import { useEffect, useState } from 'react';
import { useApiClient, useConnection } from '../../app/model-context.js';

type Status = NonNullable<ReturnType<typeof useConnectionStatus>>;
function useConnectionStatus() {
  return useConnection((state) => state.status);
}

/** Versions, home, a live uptime, the log file and a diagnostics text to paste into a bug report. */
export function AboutSection() {
  const status = useConnectionStatus();
  const refresh = useConnection((state) => state.refresh);
  // A fresh answer when the section opens, then the clock runs here: the uptime never shows a stale figure.
  useEffect(() => {
    void refresh();
  }, [refresh]);
  const now = useNow();
  return (
    <section className="settings-section" id="settings-about" aria-labelledby="settings-about-title">
      <h2 id="settings-about-title" tabIndex={-1}>About</h2>
      {status ? (
        <>
          <dl className="facts">
            <dt>Daemon version</dt>
            <dd>{status.version}</dd>
            <dt>Window</dt>
            <dd>{windowVersion()}</dd>
            <dt>Process</dt>
            <dd>pid {status.pid}</dd>
            <dt>Up for</dt>
            <dd data-testid="uptime">{formatUptime(uptimeSeconds(status, now))}</dd>
            <dt>Home</dt>
            <dd><code>{status.home}</code></dd>
            <dt>Log file</dt>
            <dd><code>{logPath(status)}</code> <span className="muted small">(or <code>{status.cli} logs</code>)</span></dd>
            <dt>Browser address</dt>
            <dd>{status.http_url ? <code>{status.http_url}</code> : 'not serving HTTP'}</dd>
            <dt>Control socket</dt>
            <dd><code>{status.socket}</code></dd>
          </dl>
          <CopyDiagnostics status={status} now={now} />
        </>
      ) : (
        <p className="placeholder">Waiting for the daemon to answer…</p>
      )}
      <SignOutEverywhere />
    </section>
  );
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function uptimeSeconds(status: Status, now: number): number {
  const started = Date.parse(status.started_at);
  return Number.isFinite(started) ? Math.max(0, Math.floor((now - started) / 1000)) : status.uptime_s;
}

/** main/config/home.ts puts the daemon's log at <home>/logs/fermix.log; system.status does not repeat it. */
function logPath(status: Status): string {
  const separator = status.home.includes('\\') && !status.home.includes('/') ? '\\' : '/';
  return [status.home.replace(/[\\/]+$/, ''), 'logs', 'fermix.log'].join(separator);
}

function windowVersion(): string {
  return `${navigator.userAgent.includes('Electron') ? 'desktop app' : 'browser'} · ${navigator.userAgent.match(/(Chrome|Firefox|Safari)\/[\d.]+/)?.[0] ?? navigator.userAgent}`;
}

export function diagnosticsText(status: Status, now: number): string {
  return [
    'Fermix diagnostics',
    `daemon version: ${status.version}`,
    `window: ${windowVersion()}`,
    `pid: ${status.pid}`,
    `started: ${status.started_at} (up ${formatUptime(uptimeSeconds(status, now))})`,
    `home: ${status.home}`,
    `log file: ${logPath(status)}`,
    `browser address: ${status.http_url ? status.http_url.replace(/([?&#]token=)[^&#]+/, '$1…') : 'none'}`,
    `control socket: ${status.socket}`,
    `requests in flight: ${status.in_flight}`,
  ].join('\n');
}

function CopyDiagnostics({ status, now }: { status: Status; now: number }) {
  const [result, setResult] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(diagnosticsText(status, now));
      setResult('Diagnostics copied. Paste them into your report; they hold no messages and no keys.');
    } catch (error) {
      setResult(`Could not copy: ${(error as Error).message}. Select the facts above instead, or run \`fermix status\`.`);
    }
  };
  return (
    <div className="settings-row">
      <button type="button" onClick={() => void copy()}>Copy diagnostics</button>
      {result && <p role="status" className="muted small">{result}</p>}
    </div>
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
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
