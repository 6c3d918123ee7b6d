/** A file shown with a message: a stored attachment (id) or, while it is being sent, a local file (id null). */
export interface MessageAttachment {
  id: string | null;
  filename: string;
  mimeType: string;
  bytes: number;
  /** A blob URL of the local file (images just sent from this window); stored ones load by id. */
  previewUrl: string | null;
}

/** A file picked, dropped or pasted into the composer, not sent yet. */
export interface PendingFile {
  key: string;
  file: File;
  name: string;
  size: number;
  type: string;
  previewUrl: string | null;
}

/** How a just-sent file shows under the message until it has an id (the local preview stays). */
export function localAttachment(file: PendingFile): MessageAttachment {
  return { id: null, filename: file.name, mimeType: file.type || 'application/octet-stream', bytes: file.size, previewUrl: file.previewUrl };
}

/** The stored files of a message (chat.history), as the thread shows them. */
export function storedAttachments(refs: readonly { id: string; filename: string; mime_type: string; bytes: number }[] | undefined): MessageAttachment[] | undefined {
  if (!refs || refs.length === 0) return undefined;
  return refs.map((ref) => ({ id: ref.id, filename: ref.filename, mimeType: ref.mime_type, bytes: ref.bytes, previewUrl: null }));
}
