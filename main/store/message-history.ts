/**
 * Messages with their turn id, for the chat window (chat.history): the window groups tool cards and
 * per-turn tokens under the message that started each turn. Newest `limit` messages, oldest first.
 */
import type { AttachmentRef } from './attachments.js';
import type { Database } from './database.js';
import { toolImagesOf, type HistoryToolImage } from './tool-images.js';

export interface HistoryMessage {
  id: number;
  role: 'user' | 'assistant' | 'tool' | 'system';
  content: string;
  created_at: string;
  turn_id: string | null;
  /** A user message's files; set only when it has some. */
  attachments?: AttachmentRef[];
  /** A tool result's images, for the newest few of the conversation (tool-images.ts); set only when it has some. */
  images?: HistoryToolImage[];
  /** How many of its images are no longer returned. */
  images_omitted?: number;
}

export function createMessageHistory(db: Database) {
  return {
    page(conversationId: string, limit: number, beforeId?: number): { messages: HistoryMessage[]; has_more: boolean } {
      const rows = db.all<HistoryMessage>(
        `SELECT id, role, content, created_at, turn_id FROM messages WHERE conversation_id = ? ${beforeId === undefined ? '' : 'AND id < ?'} ORDER BY id DESC LIMIT ?`,
        beforeId === undefined ? [conversationId, limit + 1] : [conversationId, beforeId, limit + 1],
      );
      const has_more = rows.length > limit;
      const messages = rows.slice(0, limit).reverse();
      // A turn's user message carries the uploads that turn claimed (attachments.turn_id, migration 3).
      const files = new Map<string, AttachmentRef[]>();
      // Only this page's turns: the query stays the size of the page, not of the conversation.
      const turnIds = [...new Set(messages.filter((message) => message.role === 'user' && message.turn_id).map((message) => message.turn_id as string))];
      if (turnIds.length > 0) {
        const refs = db.all<AttachmentRef & { turn_id: string }>(
          `SELECT id, filename, mime_type, bytes, turn_id FROM attachments WHERE conversation_id = ? AND direction = 'in' AND turn_id IN (${turnIds.map(() => '?').join(',')}) ORDER BY created_at, rowid`,
          [conversationId, ...turnIds],
        );
        for (const { turn_id, ...ref } of refs) files.set(turn_id, [...(files.get(turn_id) ?? []), ref]);
      }
      for (const message of messages) {
        const attached = message.role === 'user' && message.turn_id ? files.get(message.turn_id) : undefined;
        if (attached) message.attachments = attached;
      }
      const shots = toolImagesOf(db, conversationId, messages.filter((message) => message.role === 'tool').map((message) => message.id));
      for (const message of messages) {
        const found = shots.get(message.id);
        if (found && found.images.length > 0) message.images = found.images;
        if (found && found.omitted > 0) message.images_omitted = found.omitted;
      }
      return { messages, has_more };
    },
    conversationExists(conversationId: string): boolean {
      return db.get('SELECT 1 AS found FROM conversations WHERE id = ?', [conversationId]) !== undefined;
    },
  };
}
