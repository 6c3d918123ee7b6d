import { useEffect } from 'react';
import { useAttachments } from '../../../app/model-context.js';

/**
 * An attached image shown inline: the local file while it is being sent, else the stored bytes fetched
 * once by id (attachments.get). Only the four raster types models read get here, never SVG.
 */
export function AttachmentImage({ id, previewUrl, filename }: { id: string | null; previewUrl: string | null; filename: string }) {
  const preview = useAttachments((state) => (id ? state.previews[id] : undefined));
  const load = useAttachments((state) => state.loadPreview);
  useEffect(() => {
    if (!previewUrl && id) void load(id);
  }, [id, previewUrl, load]);
  const src = previewUrl ?? (preview?.state === 'ready' ? preview.url : null);
  if (preview?.state === 'failed' && !previewUrl) return <p className="attachment-image-missing muted small">{filename}: {preview.error.message}</p>;
  return (
    <span className="attachment-image-frame" aria-busy={src ? undefined : true}>
      {src ? <img className="attachment-image" src={src} alt={filename} /> : <span className="attachment-image-placeholder muted small">Loading {filename}…</span>}
    </span>
  );
}
