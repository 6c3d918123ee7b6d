import { useState } from 'react';
import { useSettings } from '../../app/model-context.js';
import { SaveFeedback } from './save-feedback.js';

const MODES = [
  { value: 'ask', label: 'Ask', text: 'Reading is allowed; anything that changes files, runs commands or reaches the network asks you first (approval cards).' },
  { value: 'auto', label: 'Auto', text: 'Allowed unless a rule says otherwise; rules that say "ask" still ask.' },
  { value: 'read_only', label: 'Read only', text: 'Only tools that change nothing may run; everything else is denied.' },
] as const;

export function PermissionsSection() {
  const settings = useSettings((state) => state.settings);
  const update = useSettings((state) => state.update);
  // The choice shows at once; the daemon's answer (or its refusal) settles it.
  const [pending, setPending] = useState<string | null>(null);
  const mode = pending ?? settings?.permissions.mode;
  const choose = (value: (typeof MODES)[number]['value']) => {
    setPending(value);
    void update({ permission_mode: value }, 'permission-mode').finally(() => setPending(null));
  };
  return (
    <section className="settings-section" id="settings-permissions" aria-labelledby="settings-permissions-title">
      <h2 id="settings-permissions-title" tabIndex={-1}>Permissions</h2>
      {settings ? (
        <>
          <fieldset className="choice-list">
            <legend>Permission mode</legend>
            {MODES.map((each) => (
              <label key={each.value} className="choice">
                <input type="radio" name="permission-mode" value={each.value} checked={mode === each.value} onChange={() => choose(each.value)} />
                <span>
                  <strong>{each.label}</strong> — {each.text}
                </span>
              </label>
            ))}
          </fieldset>
          <SaveFeedback origin="permission-mode" />
          <p className="muted small">{settings.applies.permissions === 'now' ? 'Changes apply to the next tool call.' : 'The mode applies after `fermix restart`; rules apply at once.'}</p>
          <h3>Rules</h3>
          {settings.permissions.rules.length === 0 ? (
            <p className="muted">No rules yet. Answering an approval card with “Always allow” adds one here.</p>
          ) : (
            <table className="data-table">
              <caption className="visually-hidden">Permission rules, last match wins</caption>
              <thead>
                <tr><th scope="col">Permission</th><th scope="col">Pattern</th><th scope="col">Action</th><th scope="col">From</th></tr>
              </thead>
              <tbody>
                {settings.permissions.rules.map((rule, index) => (
                  <tr key={index}>
                    <td><code>{rule.permission}</code></td>
                    <td>{rule.pattern ? <code>{rule.pattern}</code> : <span className="muted">every call</span>}{rule.unjailed && <span className="badge badge-error" title="Saved for a command that ran without the OS jail, with your account's full rights">runs unjailed</span>}</td>
                    <td><span className={`badge badge-${rule.action === 'allow' ? 'ok' : rule.action === 'deny' ? 'error' : 'parked'}`}>{rule.action}</span></td>
                    <td className="muted">{rule.source === 'always-answer' ? 'an “always” answer' : 'config.toml'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : (
        <p className="placeholder">Loading…</p>
      )}
    </section>
  );
}
