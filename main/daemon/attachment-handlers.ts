/**
 * API handlers of attachments.* (main/api/methods/attachments.ts). The composition root spreads them in:
 *   ...createAttachmentHandlers({ store: attachmentStore, db, logger })
 * Uploads are checked whole (name, size, base64, type against the bytes) before a byte is written.
 */
import type { Handlers } from '../api/dispatcher.js';
import { formatFileSize } from '../api/attachment-rules.js';
import { FermixError } from '../core/errors.js';
import { checkedMimeType, decodeAttachment, displayName } from '../store/attachment-files.js';
import type { AttachmentStore } from '../store/attachments.js';
import type { Database } from '../store/database.js';
import { MAX_FRAME_BYTES } from './control-protocol.js';
import type { Logger } from './logger.js';

export type AttachmentMethodName = 'attachments.upload' | 'attachments.get' | 'attachments.list' | 'attachments.discard';

/** Room left in a control-socket frame for the JSON around the base64. */
const FRAME_OVERHEAD = 64 * 1024;

export function createAttachmentHandlers(deps: { store: AttachmentStore; db: Database; logger?: Pick<Logger, 'info' | 'warn'> }): Pick<Handlers, AttachmentMethodName> {
  const { store } = deps;
  const conversationExists = (id: string) => deps.db.get('SELECT 1 AS found FROM conversations WHERE id = ?', [id]) !== undefined;

  return {
    'attachments.upload': (input) => {
      const filename = displayName(input.filename);
      if (!conversationExists(input.conversation_id)) {
        throw new FermixError({ code: 'conversation_not_found', message: `No conversation with id ${input.conversation_id}.`, hint: 'Create the conversation first (conversations.create), then upload its files.', data: { id: input.conversation_id } });
      }
      const bytes = decodeAttachment(filename, input.base64);
      const mimeType = checkedMimeType(filename, input.mime_type, bytes);
      // Abandoned uploads are cleared here too, not only at start-up: a daemon may run for weeks.
      store.sweepStaged();
      const record = store.save({ conversationId: input.conversation_id, direction: 'in', filename, mimeType, bytes });
      // Sizes and types only: the name may say more than the log should.
      deps.logger?.info('attachment uploaded', { id: record.id, bytes: record.bytes, mime_type: record.mime_type });
      const { path: _path, ...info } = record;
      return info;
    },
    'attachments.get': (input, context) => {
      const { record, bytes } = store.read(input.id);
      const base64Chars = Math.ceil(bytes.length / 3) * 4;
      // The CLI's socket carries frames of at most 4 MiB; say so instead of failing mid-write.
      if (context.transport === 'socket' && base64Chars > MAX_FRAME_BYTES - FRAME_OVERHEAD) {
        throw new FermixError({
          code: 'attachment_too_large',
          message: `"${record.filename}" is ${formatFileSize(record.bytes)}, more than the command line can fetch (about 3 MB).`,
          hint: `Open it from the chat in the Fermix window, or copy it from $FERMIX_HOME/${record.path}.`,
          data: { id: record.id, bytes: record.bytes },
        });
      }
      const { path: _path, ...info } = record;
      return { ...info, base64: Buffer.from(bytes).toString('base64') };
    },
    'attachments.list': (input) => ({ attachments: store.list(input.conversation_id).map(({ path: _path, ...info }) => info) }),
    'attachments.discard': (input) => ({ discarded: store.discard(input.id) }),
  };
}
