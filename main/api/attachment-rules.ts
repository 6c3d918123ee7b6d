/**
 * Chat attachment limits and the errors that name them. Common code: the daemon refuses with these errors
 * and the window refuses a file BEFORE uploading it with the very same sentence (same code, message and
 * hint), so the person sees one wording wherever the limit is met.
 */
import { FermixError } from '../core/errors.js';

/** Files one message can carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;
/** Per file, decoded: the same 20 MB default as voice (`[fermix_core.transcription] max_file_mb`). */
export const MAX_ATTACHMENT_MB = 20;
export const MAX_ATTACHMENT_BYTES = MAX_ATTACHMENT_MB * 1024 * 1024;
/**
 * Largest base64 string the upload schema lets through to the handler: twice the limit, so a file a bit
 * over 20 MB gets `attachment_too_large` naming it instead of a schema error. (The HTTP transport's 32 MB
 * body cap stops anything near this first; the window checks sizes before it uploads.)
 */
export const MAX_UPLOAD_BASE64_CHARS = Math.ceil((2 * MAX_ATTACHMENT_BYTES) / 3) * 4;

/** Image types every vision provider takes (Anthropic's list; OpenAI takes the same four). */
export const MODEL_IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** "512 B", "12.5 KB", "21.3 MB": one decimal below 100, whole numbers above. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}

/** A file name as it may appear inside an error sentence (quoted, bounded). */
function quoted(filename: string): string {
  const short = filename.length > 80 ? `${filename.slice(0, 77)}…` : filename;
  return `"${short}"`;
}

export function attachmentTooLarge(filename: string, bytes: number): FermixError {
  // Just over the limit rounds to "20 MB"; "is 20 MB; at most 20 MB" would read as a contradiction.
  const rounded = formatFileSize(bytes);
  const size = rounded === `${MAX_ATTACHMENT_MB} MB` ? `${bytes.toLocaleString('en-US')} bytes` : rounded;
  return new FermixError({
    code: 'attachment_too_large',
    message: `${quoted(filename)} is ${size}; a chat attachment can be at most ${MAX_ATTACHMENT_MB} MB.`,
    hint: 'Attach a smaller file: compress or split it, or paste the part that matters as text.',
    data: { filename, bytes, max_bytes: MAX_ATTACHMENT_BYTES },
  });
}

export function tooManyAttachments(count: number): FermixError {
  return new FermixError({
    code: 'attachment_too_many',
    message: `A message can carry at most ${MAX_ATTACHMENTS_PER_MESSAGE} files; this one has ${count}.`,
    hint: `Remove ${count - MAX_ATTACHMENTS_PER_MESSAGE} of them and send the rest in another message.`,
    data: { count, max: MAX_ATTACHMENTS_PER_MESSAGE },
  });
}

export function attachmentEmpty(filename: string): FermixError {
  return new FermixError({
    code: 'attachment_invalid',
    message: `${quoted(filename)} is empty (0 bytes).`,
    hint: 'Attach a file that has content, or remove it from the message.',
    data: { filename },
  });
}

/**
 * The window's check before it uploads: the error the daemon would answer, or null. Same order as the
 * daemon (count, then each file's size), so the first problem named is the one the daemon would name.
 */
export function checkAttachmentsBeforeUpload(files: readonly { name: string; size: number }[]): FermixError | null {
  if (files.length > MAX_ATTACHMENTS_PER_MESSAGE) return tooManyAttachments(files.length);
  for (const file of files) {
    if (file.size > MAX_ATTACHMENT_BYTES) return attachmentTooLarge(file.name, file.size);
    if (file.size === 0) return attachmentEmpty(file.name);
  }
  return null;
}
