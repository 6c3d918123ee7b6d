import { useId, useState } from 'react';
import { useSettings } from '../../app/model-context.js';
import { SaveFeedback } from './save-feedback.js';

const MODES = [
  { value: 'strict', label: 'Strict', text: 'The workspace and your grants only.' },
  { value: 'standard', label: 'Standard', text: 'Also the skills folder and the folder a request comes from, when it is inside your home.' },
  { value: 'open', label: 'Open', text: 'All of your home folder except protected paths (keys, keychains, browser profiles).' },
] as const;

export function SandboxSection() {
  const settings = useSettings((state) => state.settings);
  const update = useSettings((state) => state.update);
  const grant = useSettings((state) => state.grantPath);
  const revoke = useSettings((state) => state.revokePath);
  const busy = useSettings((state) => state.busy);
  const [path, setPath] = useState('');
  // The choice shows at once; the daemon's answer (or its refusal) settles it.
  const [pending, setPending] = useState<string | null>(null);
  const choose = (value: (typeof MODES)[number]['value']) => {
    setPending(value);
    void update({ sandbox_mode: value }, 'sandbox-mode').finally(() => setPending(null));
  };
  const pathId = useId();
  return (
    <section className="settings-section" id="settings-sandbox" aria-labelledby="settings-sandbox-title">
      <h2 id="settings-sandbox-title" tabIndex={-1}>Sandbox</h2>
      {settings ? (
        <>
          <fieldset className="choice-list">
            <legend>Sandbox mode: which folders tools may read and write</legend>
            {MODES.map((each) => (
              <label key={each.value} className="choice">
                <input type="radio" name="sandbox-mode" value={each.value} checked={(pending ?? settings.sandbox.mode) === each.value} onChange={() => choose(each.value)} />
                <span>
                  <strong>{each.label}</strong> — {each.text}
                </span>
              </label>
            ))}
          </fieldset>
          <SaveFeedback origin="sandbox-mode" />
          <p>Workspace: <code>{settings.sandbox.workspace}</code></p>
          <h3>Folder grants</h3>
          {settings.sandbox.allowed_roots.length === 0 ? (
            <p className="muted">No grants. Folders the agent asks for in the chat (and that you approve) appear here.</p>
          ) : (
            <ul className="grant-list" aria-label="Granted folders">
              {settings.sandbox.allowed_roots.map((root) => (
                <li key={root}>
                  <code>{root}</code>
                  <button type="button" className="link-button" disabled={busy} onClick={() => void revoke(root)} aria-label={`Revoke ${root}`}>Revoke</button>
                </li>
              ))}
            </ul>
          )}
          <SaveFeedback origin="revoke" />
          <form
            className="inline-fields"
            onSubmit={(event) => {
              event.preventDefault();
              if (path.trim()) void grant(path.trim()).then((ok) => ok && setPath(''));
            }}
          >
            <label htmlFor={pathId}>Grant a folder</label>
            <input id={pathId} value={path} placeholder="~/projects/site" onChange={(event) => setPath(event.target.value)} />
            <button type="submit" disabled={busy || !path.trim()}>Grant</button>
          </form>
          <SaveFeedback origin="grant" />
          <p className="muted small">{settings.applies.sandbox === 'now' ? 'Sandbox changes apply at once.' : 'Sandbox changes apply after `fermix restart`.'} Config: <code>{settings.config_file}</code></p>
        </>
      ) : (
        <p className="placeholder">Loading…</p>
      )}
    </section>
  );
}
