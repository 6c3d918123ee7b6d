import { ErrorNotice } from '../../../app/error-notice.js';
import { useThread } from '../../../app/model-context.js';
import { formatTime } from '../../../ui/format.js';
import { Icon } from '../../../ui/icons.js';
import type { ThreadItem } from '../thread/thread-types.js';

const OUTCOME: Record<string, string> = {
  granted: 'Approved: Fermix may now use this folder (saved in config.toml).',
  denied: 'Denied: the folder stays outside the sandbox.',
  expired: 'Expired: requests are single-use and valid for 60 seconds.',
};

export function DirectoryCard({ item }: { item: Extract<ThreadItem, { kind: 'directory' }> }) {
  const answer = useThread((state) => state.answerDirectory);
  const open = item.state === 'pending' || item.state === 'answering';
  return (
    <section className="card directory-card" role="group" aria-label={`Folder access request: ${item.path}`}>
      <header className="card-header">
        <Icon name="folder" size={18} />
        <strong>Fermix asks for access to a folder</strong>
      </header>
      <p><code className="path">{item.path}</code></p>
      <p className="approval-reason">{item.reason}</p>
      <p className="muted small">
        Approving adds it to <code>[sandbox] allowed_roots</code>. Token <code>{item.token}</code> (<code>/confirm {item.token}</code> or <code>/deny {item.token}</code>), valid until {formatTime(item.expiresAt)}.
      </p>
      {open ? (
        <div className="actions">
          <button type="button" className="primary" disabled={item.state === 'answering'} onClick={() => void answer(item.token, 'confirm')} aria-label={`Approve access to ${item.path}`}>
            Approve
          </button>
          <button type="button" className="danger" disabled={item.state === 'answering'} onClick={() => void answer(item.token, 'deny')} aria-label={`Deny access to ${item.path}`}>
            Deny
          </button>
        </div>
      ) : (
        <p className="approval-outcome" role="status">{OUTCOME[item.state]}</p>
      )}
      {item.error && <ErrorNotice error={item.error} />}
    </section>
  );
}
