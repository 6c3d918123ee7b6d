/**
 * Sending files with a message: each pending file is uploaded (attachments.upload) before chat.send names
 * their ids. One at a time, so at most one file's base64 is in memory; if one fails, the ones already
 * uploaded are discarded again, so a refused send leaves nothing staged in the daemon.
 */
import type { OutputOf } from '../../../../../main/api/contract.js';
import { FermixError } from '../../../../../main/core/errors.js';
import type { ApiClient } from '../../../api/client.js';
import type { PendingFile } from './attachment-types.js';
import { bytesToBase64, fileBytes } from './base64.js';

export type UploadedAttachment = OutputOf<'attachments.upload'>;

async function read(file: PendingFile): Promise<Uint8Array> {
  try {
    return await fileBytes(file.file);
  } catch (error) {
    throw new FermixError({
      code: 'attachment_invalid',
      message: `"${file.name}" could not be read from this computer (${String((error as Error)?.message ?? error)}).`,
      hint: 'Check that the file still exists and is readable, then attach it again.',
    });
  }
}

export async function uploadFiles(client: ApiClient, conversationId: string, files: readonly PendingFile[]): Promise<UploadedAttachment[]> {
  const uploaded: UploadedAttachment[] = [];
  try {
    for (const file of files) {
      const bytes = await read(file);
      uploaded.push(await client.call('attachments.upload', { conversation_id: conversationId, filename: file.name, mime_type: file.type || 'application/octet-stream', base64: bytesToBase64(bytes) }));
    }
  } catch (error) {
    await discardUploads(client, uploaded);
    throw error;
  }
  return uploaded;
}

/** Best effort: an upload left behind is swept by the daemon after a day anyway. */
export async function discardUploads(client: ApiClient, uploaded: readonly { id: string }[]): Promise<void> {
  await Promise.allSettled(uploaded.map((each) => client.call('attachments.discard', { id: each.id })));
}
