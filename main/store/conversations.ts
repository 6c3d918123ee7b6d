import { randomUUID } from 'node:crypto';
import { FermixError } from '../core/errors.js';
import type { Database } from './database.js';

/** auto: first words of the first message; model: written once by the model; user: typed by the person. */
export type TitleSource = 'auto' | 'model' | 'user';

export interface ConversationRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  pinned: boolean;
  title_source: TitleSource;
}

export interface MessageRow {
  id: number;
  conversation_id: string;
  role: 'user' | 'assistant' | 'tool' | 'system';
  content: string;
  created_at: string;
}

export interface SearchHit {
  conversation: ConversationRow;
  /** The best matching message text around the match, or null when only the title matched. */
  snippet: string | null;
}

/** A deleted conversation can be restored for this long (the window's Undo), then it is purged. */
export const DELETE_GRACE_MS = 24 * 60 * 60 * 1000;

const COLUMNS = 'id, title, created_at, updated_at, pinned, title_source';
type StoredRow = Omit<ConversationRow, 'pinned'> & { pinned: number };
const toRow = (row: StoredRow): ConversationRow => ({ ...row, pinned: row.pinned === 1 });

/**
 * The person's words as an FTS5 query: every word must occur, the last one as a prefix (search as you
 * type). Each word is quoted, so FTS5 operators typed by the person (AND, NEAR, *, ") are plain text.
 */
export function ftsQuery(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu);
  if (!words || words.length === 0) return null;
  return words.map((word, index) => `"${word}"${index === words.length - 1 ? '*' : ''}`).join(' ');
}

export function createConversationStore(db: Database, now: () => Date = () => new Date()) {
  const notFound = (id: string) =>
    new FermixError({
      code: 'conversation_not_found',
      message: `No conversation with id ${id}.`,
      hint: 'List conversations with the conversations.list API method or open one from the sidebar.',
      data: { id },
    });
  const update = (id: string, sql: string, params: (string | number | null)[]): ConversationRow => {
    const { changes } = db.run(`UPDATE conversations SET ${sql} WHERE id = ? AND deleted_at IS NULL`, [...params, id]);
    if (changes === 0) throw notFound(id);
    return store.get(id);
  };

  const store = {
    create(title?: string, source: TitleSource = title?.trim() ? 'user' : 'auto'): ConversationRow {
      const time = now().toISOString();
      const row: ConversationRow = { id: randomUUID(), title: title?.trim() || 'New conversation', created_at: time, updated_at: time, pinned: false, title_source: source };
      db.run('INSERT INTO conversations (id, title, created_at, updated_at, title_source) VALUES (?, ?, ?, ?, ?)', [row.id, row.title, row.created_at, row.updated_at, row.title_source]);
      return row;
    },
    /** Newest first; deleted ones are left out. Pinned ones come first only in the window's grouping. */
    list(limit = 100): ConversationRow[] {
      return db.all<StoredRow>(`SELECT ${COLUMNS} FROM conversations WHERE deleted_at IS NULL ORDER BY updated_at DESC, rowid DESC LIMIT ?`, [limit]).map(toRow);
    },
    get(id: string): ConversationRow {
      const row = db.get<StoredRow>(`SELECT ${COLUMNS} FROM conversations WHERE id = ?`, [id]);
      if (!row) throw notFound(id);
      return toRow(row);
    },
    /** A rename is not activity: the conversation keeps its place in the date groups. */
    rename(id: string, title: string): ConversationRow {
      return update(id, "title = ?, title_source = 'user'", [title.trim()]);
    },
    /** Replaces a first-words title once; a title the person typed (or one already written) stays. */
    setGeneratedTitle(id: string, title: string): ConversationRow | null {
      const { changes } = db.run("UPDATE conversations SET title = ?, title_source = 'model' WHERE id = ? AND title_source = 'auto' AND deleted_at IS NULL", [title, id]);
      return changes === 0 ? null : store.get(id);
    },
    setPinned(id: string, pinned: boolean): ConversationRow {
      return update(id, 'pinned = ?', [pinned ? 1 : 0]);
    },
    remove(id: string): { id: string; restorable_until: string } {
      const time = now();
      update(id, 'deleted_at = ?', [time.toISOString()]);
      return { id, restorable_until: new Date(time.getTime() + DELETE_GRACE_MS).toISOString() };
    },
    restore(id: string): ConversationRow {
      const { changes } = db.run('UPDATE conversations SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL', [id]);
      if (changes === 0) throw notFound(id);
      return store.get(id);
    },
    /** Deletes for good what was deleted longer ago than the grace period (messages and turns cascade). */
    purgeDeleted(): number {
      const cutoff = new Date(now().getTime() - DELETE_GRACE_MS).toISOString();
      return db.run('DELETE FROM conversations WHERE deleted_at IS NOT NULL AND deleted_at < ?', [cutoff]).changes;
    },
    /** Title matches first (newest first), then conversations whose messages match, best match first. */
    search(text: string, limit = 50): SearchHit[] {
      const query = ftsQuery(text);
      if (!query) return [];
      const like = `%${text.trim().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const byTitle = db
        .all<StoredRow>(`SELECT ${COLUMNS} FROM conversations WHERE deleted_at IS NULL AND title LIKE ? ESCAPE '\\' ORDER BY updated_at DESC LIMIT ?`, [like, limit])
        .map((row) => ({ conversation: toRow(row), snippet: null }));
      const seen = new Set(byTitle.map((hit) => hit.conversation.id));
      const byContent = db.all<StoredRow & { snippet: string }>(
        `SELECT c.id, c.title, c.created_at, c.updated_at, c.pinned, c.title_source, hit.snippet FROM (
           SELECT m.conversation_id AS cid, snippet(messages_fts, 0, '', '', '…', 12) AS snippet, bm25(messages_fts) AS rank
           FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
           WHERE messages_fts MATCH ? AND m.role IN ('user', 'assistant') ORDER BY rank LIMIT 500
         ) hit JOIN conversations c ON c.id = hit.cid WHERE c.deleted_at IS NULL ORDER BY hit.rank`,
        [query],
      );
      const hits: SearchHit[] = [...byTitle];
      for (const { snippet, ...row } of byContent) {
        if (hits.length >= limit) break;
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        hits.push({ conversation: toRow(row), snippet });
      }
      return hits.slice(0, limit);
    },
    appendMessage(conversationId: string, role: MessageRow['role'], content: string, data?: unknown): MessageRow {
      const time = now().toISOString();
      return db.transaction(() => {
        store.get(conversationId);
        const { lastInsertRowid } = db.run(
          'INSERT INTO messages (conversation_id, role, content, data, created_at) VALUES (?, ?, ?, ?, ?)',
          [conversationId, role, content, data === undefined ? null : JSON.stringify(data), time],
        );
        db.run('UPDATE conversations SET updated_at = ? WHERE id = ?', [time, conversationId]);
        return { id: lastInsertRowid, conversation_id: conversationId, role, content, created_at: time };
      });
    },
    /** The newest `limit` messages before `beforeId` (all when absent), oldest first (conversations.get). */
    page(conversationId: string, limit: number, beforeId?: number): { messages: MessageRow[]; has_more: boolean } {
      store.get(conversationId);
      const rows = db.all<MessageRow>(
        `SELECT id, conversation_id, role, content, created_at FROM messages WHERE conversation_id = ? ${beforeId === undefined ? '' : 'AND id < ?'} ORDER BY id DESC LIMIT ?`,
        beforeId === undefined ? [conversationId, limit + 1] : [conversationId, beforeId, limit + 1],
      );
      return { messages: rows.slice(0, limit).reverse(), has_more: rows.length > limit };
    },
    messages(conversationId: string): MessageRow[] {
      return db.all<MessageRow>('SELECT id, conversation_id, role, content, created_at FROM messages WHERE conversation_id = ? ORDER BY id', [conversationId]);
    },
  };
  return store;
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
