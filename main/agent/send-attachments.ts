/**
 * The attachment half of agent.send: the uploads a message names, checked before the turn (or a new
 * conversation) is written, so a refused send leaves nothing behind.
 */
import { tooManyAttachments, MAX_ATTACHMENTS_PER_MESSAGE } from '../api/attachment-rules.js';
import { FermixError } from '../core/errors.js';
import type { AttachmentRecord, AttachmentStore } from '../store/attachments.js';

export function checkSendAttachments(store: AttachmentStore | undefined, ids: readonly string[] | undefined, conversationId: string | undefined): AttachmentRecord[] {
  if (!ids || ids.length === 0) return [];
  const unique = [...new Set(ids)];
  if (unique.length > MAX_ATTACHMENTS_PER_MESSAGE) throw tooManyAttachments(unique.length);
  if (!store) {
    throw new FermixError({
      code: 'attachment_invalid',
      message: 'This agent service was started without an attachments store, so the message cannot carry files.',
      hint: 'This is a wiring bug (main/daemon/compose.ts passes fermixHome to the agent service); run `fermix doctor` and report it.',
    });
  }
  return store.claimable(unique, conversationId);
}
