import { useConnection, useSettings } from '../../app/model-context.js';
import type { SettingsView } from './store.js';

const WHEN: Record<'now' | 'after_restart', string> = { now: 'at once', after_restart: 'after `fermix restart`' };

/** Where the settings live and when an edit takes effect: what to know before changing anything. */
export function GeneralSection() {
  const settings = useSettings((state) => state.settings);
  const status = useConnection((state) => state.status);
  return (
    <section className="settings-section" id="settings-general" aria-labelledby="settings-general-title">
      <h2 id="settings-general-title" tabIndex={-1}>General</h2>
      {settings ? (
        <>
          <p className="muted">Every change here is written to <code>config.toml</code> by the daemon; the file stays the source of truth and can be edited by hand.</p>
          <dl className="facts">
            {status && (
              <>
                <dt>Daemon</dt>
                <dd>Fermix {status.version}, pid {status.pid} (more in About)</dd>
                <dt>Home</dt>
                <dd><code>{status.home}</code></dd>
              </>
            )}
            <dt>Config file</dt>
            <dd><code>{settings.config_file}</code></dd>
            <dt>Workspace</dt>
            <dd><code>{settings.sandbox.workspace}</code></dd>
            <dt>Computer use</dt>
            <dd>{settings.computer_use.enabled ? 'enabled' : 'off'}</dd>
          </dl>
          <h3>When changes apply</h3>
          <dl className="facts">
            {(['providers', 'permissions', 'sandbox', 'transcription'] as (keyof SettingsView['applies'])[]).map((key) => (
              <Applies key={key} name={key} when={settings.applies[key]} />
            ))}
          </dl>
        </>
      ) : (
        <p className="placeholder">Loading…</p>
      )}
    </section>
  );
}

function Applies({ name, when }: { name: string; when: 'now' | 'after_restart' }) {
  const [before, command, after] = WHEN[when].split('`');
  return (
    <>
      <dt>{name.charAt(0).toUpperCase() + name.slice(1)}</dt>
      <dd>{before}{command && <code>{command}</code>}{after}</dd>
    </>
  );
}
