import { ErrorNotice } from '../../app/error-notice.js';
import { useNavigate } from '../../app/navigation-context.js';
import { useChat, useProviders, useThread } from '../../app/model-context.js';
import { Icon } from '../../ui/icons.js';
import { StatusControl } from '../controls/status-control.js';
import { SetupCard } from '../providers/setup-card.js';
import { Composer } from './composer.js';
import { EmptyState } from './empty-state.js';
import { ThreadView } from './thread-view.js';

const EMPTY: never[] = [];

export function ConversationView({ listHidden = false, onShowList }: { listHidden?: boolean; onShowList?: () => void }) {
  const selectedId = useChat((state) => state.selectedId);
  const title = useChat((state) => state.conversations.find((each) => each.id === state.selectedId)?.title);
  const draftTitle = useChat((state) => state.draftTitle);
  const thread = useThread((state) => state.thread);
  const loading = useThread((state) => state.loading);
  const loadError = useThread((state) => state.loadError);
  const reload = useThread((state) => state.reload);
  const noProvider = useProviders((state) => state.loaded && state.providers.length === 0);
  const navigate = useNavigate();
  const notices = useThread((state) => state.notices);
  const items = thread && thread.conversationId === selectedId ? thread.items : selectedId ? EMPTY : notices;

  let body;
  if (items.length > 0) {
    body = <ThreadView items={items} thread={thread && thread.conversationId === selectedId ? thread : null} conversationId={selectedId ?? 'none'} />;
  } else if (noProvider) {
    body = <div className="conversation-scroll"><SetupCard /></div>;
  } else if (loading) {
    body = <p className="empty-state muted" role="status">Loading the conversation…</p>;
  } else {
    body = <EmptyState draft={!selectedId} />;
  }

  return (
    <article className="conversation" aria-labelledby="conversation-title">
      <header className="conversation-header">
        {listHidden && (
          <button type="button" className="icon-button" aria-label="Show conversations" title="Conversations" onClick={onShowList}>
            <Icon name="list" size={18} />
          </button>
        )}
        <h1 id="conversation-title">{selectedId ? (title ?? 'Conversation') : (draftTitle ?? 'New conversation')}</h1>
        <StatusControl />
      </header>
      {noProvider && items.length > 0 && (
        <p className="banner" role="note">
          No model provider is configured, so new messages cannot be answered.{' '}
          <button type="button" className="link-button" onClick={() => navigate('settings')}>Add one in Settings → Models</button>
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
