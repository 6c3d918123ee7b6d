import { ErrorNotice } from '../../app/error-notice.js';
import { useChat } from '../../app/model-context.js';
import { ConversationList } from './conversation-list.js';
import { ConversationView } from './conversation-view.js';

export function ChatScreen() {
  const error = useChat((state) => state.error);
  const dismissError = useChat((state) => state.dismissError);
  return (
    <div className="chat-screen">
      <ConversationList />
      <section className="conversation-pane" aria-label="Conversation">
        {error && <ErrorNotice error={error} onDismiss={dismissError} />}
        <ConversationView />
      </section>
    </div>
  );
}
