/**
 * Messages with their turn id, for the chat window (chat.history): the window groups tool cards and
 * per-turn tokens under the message that started each turn. Newest `limit` messages, oldest first.
 */
import type { Database } from './database.js';

export interface HistoryMessage {
  id: number;
  role: 'user' | 'assistant' | 'tool' | 'system';
  content: string;
  created_at: string;
  turn_id: string | null;
}

export function createMessageHistory(db: Database) {
  return {
    page(conversationId: string, limit: number, beforeId?: number): { messages: HistoryMessage[]; has_more: boolean } {
      const rows = db.all<HistoryMessage>(
        `SELECT id, role, content, created_at, turn_id FROM messages WHERE conversation_id = ? ${beforeId === undefined ? '' : 'AND id < ?'} ORDER BY id DESC LIMIT ?`,
        beforeId === undefined ? [conversationId, limit + 1] : [conversationId, beforeId, limit + 1],
      );
      const has_more = rows.length > limit;
      return { messages: rows.slice(0, limit).reverse(), has_more };
    },
    conversationExists(conversationId: string): boolean {
      return db.get('SELECT 1 AS found FROM conversations WHERE id = ?', [conversationId]) !== undefined;
    },
  };
}
