/**
 * Compaction records (migration 4) and the live window of a conversation: the latest summary plus
 * the messages after the message it replaces. Reading the window is one indexed range read
 * (messages_by_conversation is (conversation_id, id)), so a model call never re-reads what a summary
 * already stands for: its cost stays flat however long the conversation grows.
 */
import type { Database } from './database.js';
import type { StoredMessage } from './turns.js';

export type CompactionReason = 'auto' | 'manual' | 'overflow';

export interface CompactionRow {
  id: number;
  conversation_id: string;
  /** Messages with an id up to and including this one are replaced by `summary` in model calls. */
  through_message_id: number;
  summary: string;
  reason: CompactionReason;
  replaced_messages: number;
  tokens_before: number;
  tokens_after: number;
  provider: string | null;
  model: string | null;
  created_at: string;
}

export type NewCompaction = Omit<CompactionRow, 'id' | 'created_at'>;

/** A stored message with its row id (the cut of a compaction is a message id). */
export type WindowMessage = StoredMessage & { id: number };

export interface LiveWindow {
  summary: CompactionRow | null;
  messages: WindowMessage[];
}

const COLUMNS = 'id, conversation_id, through_message_id, summary, reason, replaced_messages, tokens_before, tokens_after, provider, model, created_at';

/**
 * Same reading as TurnStore.history: rows written without `data` replay as plain text; others are skipped.
 * `content` is only read for rows without `data` (it repeats data's text): the window is read several times a
 * turn, and decoding every text twice out of SQLite's memory was a fifth of a turn's garbage (docs/decisions/0027).
 */
function parseRow(db: Database, row: { id: number; role: string; content: string | null; data: string | null }): WindowMessage | null {
  if (row.data) {
    try {
      const parsed = JSON.parse(row.data) as StoredMessage;
      if (parsed && parsed.role === row.role) return { ...parsed, id: row.id };
    } catch {
      // fall through to the plain-text reading
    }
  }
  const content = row.content ?? db.get<{ content: string }>('SELECT content FROM messages WHERE id = ?', [row.id])?.content ?? '';
  if (row.role === 'user') return { role: 'user', text: content, id: row.id };
  if (row.role === 'assistant') return { role: 'assistant', text: content, toolCalls: [], id: row.id };
  return null;
}

export function createCompactionStore(db: Database, now: () => Date = () => new Date()) {
  return {
    add(record: NewCompaction): CompactionRow {
      const created = now().toISOString();
      const { lastInsertRowid } = db.run(
        `INSERT INTO compactions (conversation_id, through_message_id, summary, reason, replaced_messages, tokens_before, tokens_after, provider, model, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [record.conversation_id, record.through_message_id, record.summary, record.reason, record.replaced_messages, record.tokens_before, record.tokens_after, record.provider, record.model, created],
      );
      return { ...record, id: lastInsertRowid, created_at: created };
    },
    latest(conversationId: string): CompactionRow | null {
      return db.get<CompactionRow>(`SELECT ${COLUMNS} FROM compactions WHERE conversation_id = ? ORDER BY id DESC LIMIT 1`, [conversationId]) ?? null;
    },
    /** Compactions whose cut lies in [fromId, toId] (a page of chat.history), oldest first. */
    between(conversationId: string, fromId: number, toId: number): CompactionRow[] {
      return db.all<CompactionRow>(`SELECT ${COLUMNS} FROM compactions WHERE conversation_id = ? AND through_message_id BETWEEN ? AND ? ORDER BY id`, [conversationId, fromId, toId]);
    },
    /** What a model call reads: the latest summary and only the messages after its cut. */
    window(conversationId: string): LiveWindow {
      const summary = this.latest(conversationId);
      const rows = db.all<{ id: number; role: string; content: string | null; data: string | null }>(
        "SELECT id, role, CASE WHEN data IS NULL OR data = '' THEN content END AS content, data FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id",
        [conversationId, summary?.through_message_id ?? 0],
      );
      const messages: WindowMessage[] = [];
      for (const row of rows) {
        const parsed = parseRow(db, row);
        if (parsed) messages.push(parsed);
      }
      return { summary, messages };
    },
  };
}

export type CompactionStore = ReturnType<typeof createCompactionStore>;
