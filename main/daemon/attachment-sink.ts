/**
 * send_attachment's port for the desktop chat: the agent's file goes into the attachments store (row
 * `out`, bytes under $FERMIX_HOME/attachments) and the window hears of it through `chat.attachment`;
 * the window then fetches the bytes with attachments.get to show or save them.
 */
import type { AttachmentStore } from '../store/attachments.js';
import type { AttachmentSink } from '../tools/tool-services.js';
import type { EventBus } from './event-bus.js';

/** What the chat takes from the agent per file (the window fetches it whole through the API). */
export const OUTGOING_MAX_BYTES = 25 * 1024 * 1024;

export function createAttachmentSink(deps: { store: AttachmentStore; events: Pick<EventBus, 'emit'> }): AttachmentSink {
  return {
    maxBytes: OUTGOING_MAX_BYTES,
    async send(attachment) {
      const record = deps.store.save({
        conversationId: attachment.conversationId,
        direction: 'out',
        filename: attachment.filename,
        mimeType: attachment.mimeType,
        bytes: attachment.bytes,
      });
      deps.events.emit(attachment.conversationId, 'chat.attachment', {
        conversation_id: attachment.conversationId,
        id: record.id,
        filename: record.filename,
        mime_type: record.mime_type,
        kind: attachment.kind,
        bytes: record.bytes,
        caption: attachment.caption ?? null,
      });
      return { id: record.id };
    },
  };
}
