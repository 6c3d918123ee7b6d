import { ErrorNotice } from '../../../app/error-notice.js';
import { useAttachments } from '../../../app/model-context.js';
import { Icon } from '../../../ui/icons.js';

/** Fetches a stored attachment (attachments.get) and saves it through a Blob URL download. */
export function DownloadButton({ id, filename, compact }: { id: string; filename: string; compact?: boolean }) {
  const download = useAttachments((state) => state.download);
  const failed = useAttachments((state) => (state.downloadError?.id === id ? state.downloadError.error : null));
  return (
    <>
      <button type="button" className={compact ? 'icon-button' : 'download-button'} onClick={() => void download(id)} aria-label={`Download ${filename}`} title={`Download ${filename}`}>
        <Icon name="download" size={compact ? 14 : 16} />
        {!compact && ' Download'}
      </button>
      {failed && <ErrorNotice error={failed} />}
    </>
  );
}
