import { ErrorNotice } from '../../../app/error-notice.js';
import { useAttachments } from '../../../app/model-context.js';
import { formatFileSize } from '../../../../../main/api/attachment-rules.js';
import { Icon } from '../../../ui/icons.js';
import './attachments.css';

/** The files that go with the next message, each removable, and why a file was refused before upload. */
export function PendingFiles() {
  const pending = useAttachments((state) => state.pending);
  const refusal = useAttachments((state) => state.refusal);
  const remove = useAttachments((state) => state.remove);
  const dismiss = useAttachments((state) => state.dismissRefusal);
  if (pending.length === 0 && !refusal) return null;
  return (
    <div className="pending-files">
      {refusal && <ErrorNotice error={refusal} onDismiss={dismiss} />}
      {pending.length > 0 && (
        <ul className="file-chips" aria-label="Files to send">
          {pending.map((file) => (
            <li key={file.key} className="file-chip">
              {file.previewUrl ? <img className="file-chip-thumb" src={file.previewUrl} alt="" /> : <Icon name="file" size={16} />}
              <span className="file-chip-name" title={file.name}>{file.name}</span>
              <span className="file-chip-size">{formatFileSize(file.size)}</span>
              <button type="button" className="icon-button file-chip-remove" onClick={() => remove(file.key)} aria-label={`Remove ${file.name}`} title={`Remove ${file.name}`}>
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
