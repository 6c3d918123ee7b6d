import { useId, useState, type FormEvent } from 'react';
import type { KeyVerdict } from './store.js';

/**
 * API-key entry. The field is masked and emptied after every attempt, whatever the verdict: the key is
 * never shown again, and the daemon never sends it back (plugins.set_secret answers only the verdict).
 */
export function ApiKeyForm(props: { name: string; displayName: string; busy: boolean; hasKey: boolean; verdict: KeyVerdict | undefined; onSubmit: (value: string) => Promise<boolean>; onClear: () => void }) {
  const [value, setValue] = useState('');
  const id = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const secret = value;
    setValue('');
    if (secret.trim()) await props.onSubmit(secret);
  };
  return (
    <form className="plugin-form" onSubmit={(event) => void submit(event)} aria-label={`${props.displayName} API key`}>
      <div className="field">
        <label htmlFor={id}>{props.hasKey ? 'Replace the API key' : 'API key'}</label>
        <div className="inline-fields">
          <input
            id={id}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            placeholder={props.hasKey ? 'A key is stored (hidden)' : 'Paste the key'}
            disabled={props.busy}
          />
          <button type="submit" className="primary" disabled={props.busy || value.trim() === ''}>
            {props.busy ? 'Checking…' : 'Check and save'}
          </button>
          {props.hasKey && (
            <button type="button" className="danger" onClick={props.onClear} disabled={props.busy}>
              Remove key
            </button>
          )}
        </div>
      </div>
      <p className="muted small">The health check tries the key against {props.displayName} first; a key it rejects is not stored.</p>
      {props.verdict && (
        <p className={props.verdict.ok ? 'key-verdict ok' : 'key-verdict bad'} role={props.verdict.ok ? 'status' : 'alert'}>
          {props.verdict.text}
        </p>
      )}
    </form>
  );
}
