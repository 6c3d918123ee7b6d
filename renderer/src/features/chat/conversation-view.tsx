import { useChat } from '../../app/model-context.js';

export function ConversationView() {
  const selected = useChat((state) => state.conversations.find((each) => each.id === state.selectedId));
  const messages = useChat((state) => state.messages);
  if (!selected) {
    return (
      <div className="empty-state">
        <h1>Chat</h1>
        <p>Pick a conversation on the left, or start a new one.</p>
      </div>
    );
  }
  return (
    <article className="conversation" aria-labelledby="conversation-title">
      <h1 id="conversation-title">{selected.title}</h1>
      {messages.length === 0 ? (
        <p className="empty">No messages yet. Sending messages arrives with the agent loop.</p>
      ) : (
        <ol className="messages" aria-label="Messages">
          {messages.map((message) => (
            <li key={message.id} className={`message message-${message.role}`}>
              <span className="message-role">{message.role}</span>
              <p>{message.content}</p>
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}
