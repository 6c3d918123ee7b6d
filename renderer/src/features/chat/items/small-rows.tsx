import { ErrorNotice } from '../../../app/error-notice.js';
import { formatBytes } from '../../../ui/format.js';
import { Icon } from '../../../ui/icons.js';
import { MODEL_IMAGE_TYPES } from '../../../../../main/api/attachment-rules.js';
import { AttachmentImage } from '../attachments/attachment-image.js';
import { DownloadButton } from '../attachments/download-button.js';
import type { ThreadItem } from '../thread/thread-types.js';

/** A file the agent sent (send_attachment): downloadable; an image the model could have made is shown inline. */
export function AttachmentRow({ item }: { item: Extract<ThreadItem, { kind: 'attachment' }> }) {
  const inline = MODEL_IMAGE_TYPES.includes(item.mimeType);
  return (
    <section className="card attachment-card" aria-label={`Attachment ${item.filename}`}>
      <span className="attachment-icon"><Icon name={item.fileKind === 'image' || item.mimeType.startsWith('image/') ? 'image' : 'file'} size={22} /></span>
      <div className="attachment-body">
        <p className="attachment-name">{item.filename}</p>
        <p className="muted small">
          {formatBytes(item.bytes)} · {item.mimeType}
        </p>
        {item.caption && <p className="attachment-caption">{item.caption}</p>}
        {inline && <AttachmentImage id={item.id} previewUrl={null} filename={item.filename} />}
      </div>
      <div className="attachment-actions">
        <DownloadButton id={item.id} filename={item.filename} />
      </div>
    </section>
  );
}

export function WarningRow({ item }: { item: Extract<ThreadItem, { kind: 'warning' }> }) {
  return (
    <p className="thread-warning" role="note">
      <Icon name="warning" size={14} />{' '}
      {item.message} <span className="muted small">({item.code})</span>
    </p>
  );
}

export function NoticeRow({ item }: { item: Extract<ThreadItem, { kind: 'notice' }> }) {
  if (item.error) return <ErrorNotice error={item.error} />;
  return <p className="thread-notice" role="status">{item.text}</p>;
}
