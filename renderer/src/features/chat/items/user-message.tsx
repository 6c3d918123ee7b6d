import { ErrorNotice } from '../../../app/error-notice.js';
import { formatTime } from '../../../ui/format.js';
import { MessageFiles } from '../attachments/message-files.js';
import type { ThreadItem } from '../thread/thread-types.js';

export function UserMessage({ item }: { item: Extract<ThreadItem, { kind: 'user' }> }) {
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
      {item.failed && <ErrorNotice error={item.failed} />}
    </article>
  );
}
