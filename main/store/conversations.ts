import { randomUUID } from 'node:crypto';
import { FermixError } from '../core/errors.js';
import type { Database } from './database.js';

export interface ConversationRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

export interface MessageRow {
  id: number;
  conversation_id: string;
  role: 'user' | 'assistant' | 'tool' | 'system';
  content: string;
  created_at: string;
}

export function createConversationStore(db: Database, now: () => Date = () => new Date()) {
  const notFound = (id: string) =>
    new FermixError({
      code: 'conversation_not_found',
      message: `No conversation with id ${id}.`,
      hint: 'List conversations with the conversations.list API method or open one from the sidebar.',
      data: { id },
    });

  return {
    create(title?: string): ConversationRow {
      const time = now().toISOString();
      const row: ConversationRow = { id: randomUUID(), title: title?.trim() || 'New conversation', created_at: time, updated_at: time };
      db.run('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', [row.id, row.title, row.created_at, row.updated_at]);
      return row;
    },
    list(limit = 100): ConversationRow[] {
      return db.all<ConversationRow>('SELECT id, title, created_at, updated_at FROM conversations ORDER BY updated_at DESC, rowid DESC LIMIT ?', [limit]);
    },
    get(id: string): ConversationRow {
      const row = db.get<ConversationRow>('SELECT id, title, created_at, updated_at FROM conversations WHERE id = ?', [id]);
      if (!row) throw notFound(id);
      return row;
    },
    rename(id: string, title: string): ConversationRow {
      const { changes } = db.run('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?', [title, now().toISOString(), id]);
      if (changes === 0) throw notFound(id);
      return this.get(id);
    },
    appendMessage(conversationId: string, role: MessageRow['role'], content: string, data?: unknown): MessageRow {
      const time = now().toISOString();
      return db.transaction(() => {
        this.get(conversationId);
        const { lastInsertRowid } = db.run(
          'INSERT INTO messages (conversation_id, role, content, data, created_at) VALUES (?, ?, ?, ?, ?)',
          [conversationId, role, content, data === undefined ? null : JSON.stringify(data), time],
        );
        db.run('UPDATE conversations SET updated_at = ? WHERE id = ?', [time, conversationId]);
        return { id: lastInsertRowid, conversation_id: conversationId, role, content, created_at: time };
      });
    },
    messages(conversationId: string): MessageRow[] {
      return db.all<MessageRow>('SELECT id, conversation_id, role, content, created_at FROM messages WHERE conversation_id = ? ORDER BY id', [conversationId]);
    },
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
