import { useId, useState, type FormEvent } from 'react';
import type { AddServerInput } from './store.js';

interface EnvRow {
  key: string;
  value: string;
  secret: boolean;
}

/** Splits an args line the way a person types it: spaces separate, quotes keep spaces inside one argument. */
export function splitArgs(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3]);
}

/**
 * Add a server: a command (stdio) or a URL (Streamable HTTP). Env values marked secret are typed into
 * masked fields and go to the secret store; config.toml keeps only `@keyring:` references to them.
 */
export function AddServerForm({ busy, onAdd }: { busy: boolean; onAdd: (input: AddServerInput) => Promise<boolean> }) {
  const [kind, setKind] = useState<'command' | 'url'>('command');
  const [name, setName] = useState('');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [url, setUrl] = useState('');
  const [env, setEnv] = useState<EnvRow[]>([]);
  const id = useId();
  const setRow = (index: number, change: Partial<EnvRow>) => setEnv(env.map((row, at) => (at === index ? { ...row, ...change } : row)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const rows = env.filter((row) => row.key.trim() !== '' && row.value !== '');
    const input: AddServerInput = kind === 'command'
      ? { name: name.trim(), command: command.trim(), args: splitArgs(args), env: Object.fromEntries(rows.map((row) => [row.key.trim(), { value: row.value, secret: row.secret }])) }
      : { name: name.trim(), url: url.trim(), args: [], env: {} };
    if (await onAdd(input)) {
      setName('');
      setCommand('');
      setArgs('');
      setUrl('');
      setEnv([]);
    } else {
      // Secret values are never kept in the form after an attempt.
      setEnv(env.map((row) => (row.secret ? { ...row, value: '' } : row)));
    }
  };
  const ready = name.trim() !== '' && (kind === 'command' ? command.trim() !== '' : url.trim() !== '');
  return (
    <form className="card mcp-add" aria-label="Add an MCP server" onSubmit={(event) => void submit(event)}>
      <h2>Add a server</h2>
      <fieldset className="inline-fields mcp-kind">
        <legend className="visually-hidden">How Fermix reaches it</legend>
        <label><input type="radio" name={`${id}-kind`} checked={kind === 'command'} onChange={() => setKind('command')} /> Command (stdio)</label>
        <label><input type="radio" name={`${id}-kind`} checked={kind === 'url'} onChange={() => setKind('url')} /> URL (Streamable HTTP)</label>
      </fieldset>
      <div className="mcp-add-grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} placeholder="files" pattern="[A-Za-z0-9][A-Za-z0-9_\-]{0,63}" title="Letters, digits, - and _ (up to 64)" />
        </div>
        {kind === 'command' ? (
          <>
            <div className="field">
              <label htmlFor={`${id}-command`}>Command</label>
              <input id={`${id}-command`} value={command} onChange={(event) => setCommand(event.target.value)} placeholder="npx" spellCheck={false} />
            </div>
            <div className="field mcp-wide">
              <label htmlFor={`${id}-args`}>Arguments</label>
              <input id={`${id}-args`} value={args} onChange={(event) => setArgs(event.target.value)} placeholder="-y @modelcontextprotocol/server-filesystem ~/notes" spellCheck={false} />
            </div>
          </>
        ) : (
          <div className="field mcp-wide">
            <label htmlFor={`${id}-url`}>URL</label>
            <input id={`${id}-url`} type="url" value={url} onChange={(event) => setUrl(event.target.value)} placeholder="https://mcp.example.com/mcp" spellCheck={false} />
            <p className="small plugin-missing">A remote server: what the agent sends to its tools leaves this machine.</p>
          </div>
        )}
      </div>
      {kind === 'command' && (
        <div className="mcp-env" role="group" aria-label="Environment variables">
          {env.map((row, index) => (
            <div className="inline-fields" key={index}>
              <input aria-label={`Variable ${index + 1} name`} value={row.key} onChange={(event) => setRow(index, { key: event.target.value })} placeholder="API_TOKEN" spellCheck={false} />
              <input aria-label={`Variable ${index + 1} value`} type={row.secret ? 'password' : 'text'} autoComplete="off" value={row.value} onChange={(event) => setRow(index, { value: event.target.value })} placeholder="value" />
              <label><input type="checkbox" checked={row.secret} onChange={(event) => setRow(index, { secret: event.target.checked })} /> Secret</label>
              <button type="button" className="small-button" onClick={() => setEnv(env.filter((_, at) => at !== index))} aria-label={`Remove variable ${index + 1}`}>Remove</button>
            </div>
          ))}
          <button type="button" className="small-button" onClick={() => setEnv([...env, { key: '', value: '', secret: true }])}>Add a variable</button>
        </div>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy || !ready}>{busy ? 'Adding…' : 'Add server'}</button>
      </div>
    </form>
  );
}
