import { MODEL_IMAGE_TYPES, formatFileSize } from '../../../../../main/api/attachment-rules.js';
import { Icon } from '../../../ui/icons.js';
import { AttachmentImage } from './attachment-image.js';
import type { MessageAttachment } from './attachment-types.js';
import { DownloadButton } from './download-button.js';
import './attachments.css';

/** The files a person sent with a message: images as thumbnails, other files as chips, each downloadable. */
export function MessageFiles({ files }: { files: readonly MessageAttachment[] }) {
  return (
    <ul className="message-files" aria-label="Attached files">
      {files.map((file, index) => {
        const image = MODEL_IMAGE_TYPES.includes(file.mimeType);
        return (
          <li key={file.id ?? `${index}:${file.filename}`} className={image ? 'message-file message-file-image' : 'message-file file-chip'} aria-label={`${file.filename}, ${formatFileSize(file.bytes)}`}>
            {image ? (
              <AttachmentImage id={file.id} previewUrl={file.previewUrl} filename={file.filename} />
            ) : (
              <>
                <Icon name="file" size={16} />
                <span className="file-chip-name" title={file.filename}>{file.filename}</span>
                <span className="file-chip-size">{formatFileSize(file.bytes)}</span>
              </>
            )}
            {file.id && <DownloadButton id={file.id} filename={file.filename} compact />}
          </li>
        );
      })}
    </ul>
  );
}
