import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { ErrorNotice } from '../../app/error-notice.js';
import { useApiClient } from '../../app/model-context.js';
import { formatDateTime } from '../../ui/format.js';
import { MemoryRow } from './memory-row.js';
import { MemorySearch } from './memory-search.js';
import { createMemoryStore } from './store.js';
import './memory.css';

/** Memory: what the agent keeps about the owner and their work; search it (and past conversations), forget what is wrong. */
export function MemoryScreen() {
  const client = useApiClient();
  const [store] = useState(() => createMemoryStore(client));
  const memories = useStore(store, (state) => state.memories);
  const history = useStore(store, (state) => state.history);
  const searched = useStore(store, (state) => state.searched);
  const loading = useStore(store, (state) => state.loading);
  const confirming = useStore(store, (state) => state.confirming);
  const forgotten = useStore(store, (state) => state.forgotten);
  const error = useStore(store, (state) => state.error);
  const { load, search, forget } = store.getState();

  useEffect(() => {
    void load();
  }, [load]);

  const nothing = memories.length === 0 && history.length === 0;
  const summary = loading
    ? 'Loading…'
    : searched
      ? `${memories.length} memor${memories.length === 1 ? 'y' : 'ies'}${searched.source !== 'memories' ? ` and ${history.length} conversation match${history.length === 1 ? '' : 'es'}` : ''} for “${searched.query}”.`
      : nothing
        ? ''
        : `${memories.length} memor${memories.length === 1 ? 'y' : 'ies'}.`;
  return (
    <section className="screen memory-screen" aria-labelledby="memory-title">
      <h1 id="memory-title">Memory</h1>
      <p className="muted">
        What the agent remembers between conversations: facts about you, your preferences and goals, and context for ongoing work. It stores them when you ask or when it is sure; only you can forget them.
      </p>
      <MemorySearch busy={loading} onSearch={(query, scope, source) => void search(query, scope, source)} />
      {error && <ErrorNotice error={error} onDismiss={() => store.setState({ error: null })} />}
      <p className="muted small" role="status">
        {forgotten ? `Forgot “${forgotten.key}”. ` : ''}
        {summary}
        {searched && <> <button type="button" className="link-button" onClick={() => void load()}>Show all</button></>}
      </p>
      {nothing && !loading && (
        searched ? (
          <p className="empty">Nothing matched. Try other words, or search in past conversations too.</p>
        ) : (
          <p className="empty">
            Nothing is remembered yet. Tell the agent in the chat — “remember that I take my coffee flat white” — and it keeps it here, ready for later conversations.
          </p>
        )
      )}
      {memories.length > 0 && (
        <ul className="memory-list" aria-label="Memories">
          {memories.map((memory) => (
            <MemoryRow
              key={memory.id}
              memory={memory}
              confirming={confirming === memory.id}
              onAsk={() => store.setState({ confirming: memory.id, forgotten: null })}
              onCancel={() => store.setState({ confirming: null })}
              onForget={() => void forget(memory)}
            />
          ))}
        </ul>
      )}
      {history.length > 0 && (
        <section aria-labelledby="memory-history-title">
          <h2 id="memory-history-title">In past conversations</h2>
          <ul className="memory-history">
            {history.map((hit, index) => (
              <li key={`${hit.conversation_id}-${index}`}>
                <span className="memory-key">{hit.title || 'Untitled conversation'}</span> <span className="muted small">{hit.role} · {formatDateTime(hit.created_at)}</span>
                <p className="memory-value">{hit.snippet}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
