import { useState } from 'react';
import { ErrorNotice } from '../../../app/error-notice.js';
import { useThread } from '../../../app/model-context.js';
import { formatTime } from '../../../ui/format.js';
import { CopyButton } from '../actions/copy-button.js';
import { EditMessage } from '../actions/edit-message.js';
import { MessageFiles } from '../attachments/message-files.js';
import type { DisplayItem } from '../thread/display.js';

const QUEUED: Record<string, string> = {
  approval: 'Queued — it runs after the approval above is answered',
  turn: 'Queued — it runs after the current answer',
};

export function UserMessage({ item }: { item: Extract<DisplayItem, { kind: 'user' }> }) {
  const retry = useThread((state) => state.retrySend);
  const [editing, setEditing] = useState(false);
  if (editing && item.turnId && item.text !== null) return <EditMessage turnId={item.turnId} text={item.text} onClose={() => setEditing(false)} />;
  return (
    <article className="message message-user" aria-label="Your message">
      <div className="bubble">
        {item.text === null ? <p className="muted">(sent from another window or the command line)</p> : item.text && <p className="user-text">{item.text}</p>}
        {item.attachments && item.attachments.length > 0 && <MessageFiles files={item.attachments} />}
        <footer className="message-meta">
          {item.pending ? 'Sending…' : <time dateTime={item.time}>{formatTime(item.time)}</time>}
          {item.reaction && <span className="reaction" role="img" aria-label={`Fermix reacted ${item.reaction}`}>{item.reaction}</span>}
        </footer>
      </div>
      {item.queuedBehind && <p className="message-queued muted small" role="status">{QUEUED[item.queuedBehind]}</p>}
      {item.failed && (
        <div className="message-failed">
          <ErrorNotice error={item.failed} />
          {item.text !== null && (
            <button type="button" className="small-button" onClick={() => void retry(item.key)}>
              Retry sending
            </button>
          )}
        </div>
      )}
      {!item.pending && !item.failed && item.text && (
        <div className="message-actions" role="group" aria-label="Message actions">
          <CopyButton text={item.text} what="your message" />
          {item.editable && (
            <button type="button" className="small-button message-action" title="Edit and send again, in a copy of this conversation up to here" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
        </div>
      )}
    </article>
  );
}
