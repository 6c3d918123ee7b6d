import { useEffect, useId } from 'react';
import type { StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { ErrorNotice } from '../../app/error-notice.js';
import { FixCommand } from './fix-command.js';
import type { PluginsState } from './store.js';

/**
 * Computer Use (the catalog's `computer_use_sidecar`): a setup card with no tools of its own. Ready only
 * when `[fermix_core.computer_use] enabled` is on and doctor's native check (display, idle time, OS
 * permissions) passes; otherwise it names the missing part.
 */
export function ComputerUseCard({ store }: { store: StoreApi<PluginsState> }) {
  const computer = useStore(store, (s) => s.computer);
  const check = useStore(store, (s) => s.computerCheck);
  const busy = useStore(store, (s) => s.busy.computer_use);
  const error = useStore(store, (s) => s.errors.computer_use);
  const titleId = useId();
  const enabled = computer?.enabled ?? false;
  useEffect(() => {
    if (enabled && !check) void store.getState().checkComputer();
  }, [enabled, check, store]);
  const nativeOk = check ? check.status === 'OK' || check.status === 'WARN' : null;
  const ready = enabled && nativeOk === true;
  const restartRequired = computer?.restart_required === true;
  const missing = !enabled ? 'Computer use is off ([fermix_core.computer_use] enabled = false).' : nativeOk === false ? `The native layer is not usable: ${check?.detail}.` : null;
  return (
    <article className="card plugin-card" aria-labelledby={titleId} data-plugin="computer_use_sidecar">
      <div className="plugin-card-head">
        <span className="plugin-logo plugin-monogram" style={{ background: '#3f5efb' }} aria-hidden="true">C</span>
        <div className="plugin-card-title">
          <h2 id={titleId}>Computer Use</h2>
          <p className="muted small">Fermix · desktop · no sign-in · no tools of its own</p>
        </div>
        <span className={`badge plugin-badge plugin-badge-${ready ? 'ok' : 'warn'}`} data-status={ready ? 'ready' : 'needs_setup'}>{ready ? 'Ready' : 'Needs setup'}</span>
      </div>
      <p className="plugin-description">
        Lets the agent see this screen and move the mouse and keyboard (the <code>computer_use</code> tool) when you ask it to in a chat. It acts only while you are idle, steps aside when you touch the mouse or keyboard,
        and <code>/pause</code> or the tray hands control back at once.
      </p>
      <p className="plugin-consent"><span>Runs on this machine; screenshots go to your model provider as part of the conversation.</span></p>
      {computer && <p className="small muted">{computer.summary}</p>}
      {missing && <p className="small plugin-missing">{missing}{check?.fix ? ` ${check.fix}` : ''}</p>}
      {check?.status === 'WARN' && <p className="small plugin-missing">{check.detail}. {check.fix}</p>}
      {error && <ErrorNotice error={error} />}
      {!enabled && (
        <FixCommand
          what="Enabling sets [fermix_core.computer_use] enabled = true in config.toml; it applies on the next daemon restart."
          command={'# in config.toml (fermix config path shows where):\n[fermix_core.computer_use]\nenabled = true\n\nfermix restart'}
        />
      )}
      {restartRequired && <p className="small plugin-missing" role="status">The change applies when the daemon restarts.</p>}
      <div className="actions plugin-actions">
        {!enabled && (
          <button type="button" className="primary" onClick={() => void store.getState().setComputerEnabled(true)} disabled={busy !== undefined}>
            Enable
          </button>
        )}
        {restartRequired && (
          <button type="button" className="primary" onClick={() => void store.getState().restartDaemon()} disabled={busy !== undefined}>
            Restart now
          </button>
        )}
        <button type="button" onClick={() => void store.getState().checkComputer()} disabled={busy !== undefined}>
          {busy ?? 'Check the native layer'}
        </button>
      </div>
    </article>
  );
}
