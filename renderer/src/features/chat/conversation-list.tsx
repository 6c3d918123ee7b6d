import { useChat } from '../../app/model-context.js';

export function ConversationList() {
  const conversations = useChat((state) => state.conversations);
  const selectedId = useChat((state) => state.selectedId);
  const loaded = useChat((state) => state.loaded);
  const creating = useChat((state) => state.creating);
  const create = useChat((state) => state.create);
  const select = useChat((state) => state.select);
  return (
    <aside className="conversation-list" aria-labelledby="conversations-title">
      <header className="pane-header">
        <h2 id="conversations-title">Conversations</h2>
        <button type="button" className="primary" onClick={() => void create()} disabled={creating}>
          New conversation
        </button>
      </header>
      {loaded && conversations.length === 0 && <p className="empty">No conversations yet.</p>}
      <ul aria-label="Conversations">
        {conversations.map((conversation) => (
          <li key={conversation.id}>
            <button
              type="button"
              className="conversation-item"
              aria-current={conversation.id === selectedId ? 'true' : undefined}
              onClick={() => void select(conversation.id)}
            >
              <span className="conversation-title">{conversation.title}</span>
              <time className="conversation-time" dateTime={conversation.updated_at}>
                {formatTime(conversation.updated_at)}
              </time>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}

function formatTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
