import { useEffect, useId, useState, type FormEvent } from 'react';
import type { ConfigKey } from './store.js';

/** The manifest's declared config keys ([fermix_core.plugins.<name>]), one small form each. */
export function ConfigForm(props: { name: string; keys: ConfigKey[] | undefined; busy: boolean; onLoad: () => void; onSave: (key: string, value: string) => Promise<boolean> }) {
  const { onLoad, keys } = props;
  useEffect(() => {
    if (!keys) onLoad();
  }, [keys, onLoad]);
  if (!keys) return <p className="muted small">Loading the settings…</p>;
  if (keys.length === 0) return null;
  return (
    <div className="plugin-config" role="group" aria-label="Settings">
      {keys.map((entry) => <ConfigField key={entry.key} entry={entry} busy={props.busy} onSave={props.onSave} />)}
    </div>
  );
}

function ConfigField({ entry, busy, onSave }: { entry: ConfigKey; busy: boolean; onSave: (key: string, value: string) => Promise<boolean> }) {
  const id = useId();
  const initial = entry.value === null ? '' : String(entry.value);
  const [value, setValue] = useState(initial);
  useEffect(() => setValue(initial), [initial]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await onSave(entry.key, value);
  };
  return (
    <form className="field" onSubmit={(event) => void submit(event)}>
      <label htmlFor={id}>
        {entry.prompt} <code>{entry.key}</code>
        {entry.required && <span className="muted"> (required)</span>}
      </label>
      <div className="inline-fields">
        {entry.kind === 'boolean' ? (
          <select id={id} value={value} onChange={(event) => setValue(event.target.value)} disabled={busy}>
            <option value="">Not set</option>
            <option value="true">On</option>
            <option value="false">Off</option>
          </select>
        ) : (
          <input id={id} value={value} onChange={(event) => setValue(event.target.value)} disabled={busy} />
        )}
        <button type="submit" disabled={busy || value === initial || value === ''}>Save</button>
      </div>
    </form>
  );
}
