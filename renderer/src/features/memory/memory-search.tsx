import { useId, useState } from 'react';
import type { SearchScope, SearchSource } from './store.js';

/** The search: words, whose memories (the owner's and the agent's, or every scope) and where (memories, past conversations). */
export function MemorySearch({ busy, onSearch }: { busy: boolean; onSearch: (query: string, scope: SearchScope, source: SearchSource) => void }) {
  const [query, setQuery] = useState('');
  const [scope, setScope] = useState<SearchScope>('all');
  const [source, setSource] = useState<SearchSource>('memories');
  const ids = { query: useId(), scope: useId(), source: useId() };
  return (
    <form
      className="memory-search"
      role="search"
      aria-label="Search memory"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(query.trim(), scope, source);
      }}
    >
      <div className="field memory-query">
        <label htmlFor={ids.query}>Search</label>
        <input id={ids.query} type="search" value={query} placeholder="coffee, hotel, deadline…" onChange={(event) => setQuery(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={ids.scope}>Whose</label>
        <select id={ids.scope} value={scope} onChange={(event) => setScope(event.target.value as SearchScope)}>
          <option value="all">Every memory</option>
          <option value="owner">About you and for the agent</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.source}>In</label>
        <select id={ids.source} value={source} onChange={(event) => setSource(event.target.value as SearchSource)}>
          <option value="memories">Memories</option>
          <option value="history">Past conversations</option>
          <option value="all">Both</option>
        </select>
      </div>
      <button type="submit" className="primary" disabled={busy}>Search</button>
    </form>
  );
}
