import { ErrorNotice } from '../../app/error-notice.js';
import { useNavigate } from '../../app/navigation-context.js';
import { useChat, useProviders, useThread } from '../../app/model-context.js';
import { ControlsBar } from '../controls/controls-bar.js';
import { SetupCard } from '../providers/setup-card.js';
import { Composer } from './composer.js';
import { ThreadView } from './thread-view.js';

export function ConversationView() {
  const selectedId = useChat((state) => state.selectedId);
  const title = useChat((state) => state.conversations.find((each) => each.id === state.selectedId)?.title);
  const thread = useThread((state) => state.thread);
  const loading = useThread((state) => state.loading);
  const loadError = useThread((state) => state.loadError);
  const reload = useThread((state) => state.reload);
  const noProvider = useProviders((state) => state.loaded && state.providers.length === 0);
  const navigate = useNavigate();
  const notices = useThread((state) => state.notices);
  const items = thread && thread.conversationId === selectedId ? thread.items : selectedId ? [] : notices;

  let body;
  if (items.length > 0) {
    body = <ThreadView items={items} conversationId={selectedId ?? 'none'} />;
  } else if (noProvider) {
    body = <div className="conversation-scroll"><SetupCard /></div>;
  } else if (loading) {
    body = <p className="empty-state muted" role="status">Loading the conversation…</p>;
  } else {
    body = (
      <div className="empty-state">
        <h2>{selectedId ? 'Nothing here yet' : 'Ask Fermix anything'}</h2>
        <p className="muted">Type below and press Enter. Fermix asks before it runs anything that needs your approval.</p>
        <p className="muted small">Commands: <code>/stop</code> <code>/pause</code> <code>/resume</code> <code>/pause turn</code> <code>/new</code> <code>/confirm TOKEN</code> <code>/deny TOKEN</code> · <code>/help</code></p>
      </div>
    );
  }

  return (
    <article className="conversation" aria-labelledby="conversation-title">
      <header className="conversation-header">
        <h1 id="conversation-title">{selectedId ? (title ?? 'Conversation') : 'New conversation'}</h1>
        <ControlsBar />
      </header>
      {noProvider && items.length > 0 && (
        <p className="banner" role="note">
          No model provider is configured, so new messages cannot be answered.{' '}
          <button type="button" className="link-button" onClick={() => navigate('settings')}>Add one in Settings → Providers</button>
        </p>
      )}
      {loadError && (
        <div className="conversation-error">
          <ErrorNotice error={loadError} />
          <button type="button" onClick={() => void reload()}>Try again</button>
        </div>
      )}
      <div className="conversation-body">{body}</div>
      <Composer conversationId={selectedId} disabled={noProvider} onOpenSettings={() => navigate('settings')} />
    </article>
  );
}
