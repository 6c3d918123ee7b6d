/**
 * Memories in SQLite (migration 8): the rows, their FTS5 index, and the history search over
 * messages_fts (migration 7). Nothing here decides what may be written (admission.ts) or who may read
 * what (recall.ts); it answers exact questions.
 */
import { ftsQuery } from '../store/conversations.js';
import type { Database, SqlValue } from '../store/database.js';
import type { Admission, MemoryRow, Scope } from './admission.js';

export interface HistoryHit {
  conversation_id: string;
  title: string;
  role: string;
  snippet: string;
  created_at: string;
}

export interface MemoryFilter {
  /** Only these scopes; undefined = every scope. */
  scopes?: readonly Scope[];
  /** Only rows written at this trust (the owner's prompt reads `operator` only). */
  writtenBy?: 'operator' | 'guest';
  limit?: number;
}

const COLUMNS = 'id, agent_id, scope_type, scope_id, key, value, category, confidence, promote_target, written_by, source_type, source_id, created_at, updated_at';

function scopeClause(scopes: readonly Scope[] | undefined, alias = ''): { sql: string; params: SqlValue[] } {
  if (scopes === undefined) return { sql: '1', params: [] };
  if (scopes.length === 0) return { sql: '0', params: [] };
  return {
    sql: `(${scopes.map(() => `(${alias}scope_type = ? AND ${alias}scope_id = ?)`).join(' OR ')})`,
    params: scopes.flatMap((scope) => [scope.type, scope.id]),
  };
}

export function createMemoryStore(db: Database, now: () => Date = () => new Date()) {
  return {
    /** The first row with this key among the scopes, in the scopes' order. */
    findByKey(scopes: readonly Scope[], key: string): MemoryRow | undefined {
      for (const scope of scopes) {
        const row = db.get<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE scope_type = ? AND scope_id = ? AND key = ? ORDER BY id LIMIT 1`, [scope.type, scope.id, key]);
        if (row) return row;
      }
      return undefined;
    },
    /** Writes what admission decided; an upsert on the de-duplication key (agent, scope, key). */
    apply(admission: Admission): MemoryRow {
      if (admission.action === 'unchanged') return admission.existing;
      const time = now().toISOString();
      const r = admission.row;
      db.run(
        `INSERT INTO memories (agent_id, scope_type, scope_id, key, value, category, confidence, promote_target, written_by, source_type, source_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (agent_id, scope_type, scope_id, key) DO UPDATE SET
           value = excluded.value, category = excluded.category, confidence = excluded.confidence, promote_target = excluded.promote_target,
           written_by = excluded.written_by, source_type = excluded.source_type, source_id = excluded.source_id, updated_at = excluded.updated_at`,
        [r.agent_id, r.scope_type, r.scope_id, r.key, r.value, r.category, r.confidence, r.promote_target, r.written_by, r.source_type, r.source_id, time, time],
      );
      return db.get<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE agent_id = ? AND scope_type = ? AND scope_id = ? AND key = ?`, [r.agent_id, r.scope_type, r.scope_id, r.key])!;
    },
    list(filter: MemoryFilter = {}): MemoryRow[] {
      const where = scopeClause(filter.scopes);
      const params: SqlValue[] = [...where.params];
      let sql = `SELECT ${COLUMNS} FROM memories WHERE ${where.sql}`;
      if (filter.writtenBy) {
        sql += ' AND written_by = ?';
        params.push(filter.writtenBy);
      }
      sql += ' ORDER BY updated_at DESC, id DESC';
      if (filter.limit !== undefined) {
        sql += ' LIMIT ?';
        params.push(filter.limit);
      }
      return db.all<MemoryRow>(sql, params);
    },
    /** FTS5 over key and value, best bm25 first. Null when the text has no searchable word. */
    search(text: string, filter: MemoryFilter = {}): MemoryRow[] | null {
      const query = ftsQuery(text);
      if (query === null) return null;
      const where = scopeClause(filter.scopes, 'm.');
      const params: SqlValue[] = [query, ...where.params];
      let sql = `SELECT ${COLUMNS.split(', ').map((column) => `m.${column}`).join(', ')} FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
        WHERE memories_fts MATCH ? AND ${where.sql}`;
      if (filter.writtenBy) {
        sql += ' AND m.written_by = ?';
        params.push(filter.writtenBy);
      }
      sql += ' ORDER BY bm25(memories_fts) LIMIT ?';
      params.push(filter.limit ?? 10);
      return db.all<MemoryRow>(sql, params);
    },
    /**
     * Past conversation history (user and assistant messages of conversations not deleted), best bm25
     * first; `conversationId` narrows it to one conversation.
     */
    searchHistory(text: string, options: { conversationId?: string; limit?: number } = {}): HistoryHit[] | null {
      const query = ftsQuery(text);
      if (query === null) return null;
      const params: SqlValue[] = [query];
      let narrow = '';
      if (options.conversationId !== undefined) {
        narrow = ' AND m.conversation_id = ?';
        params.push(options.conversationId);
      }
      params.push(options.limit ?? 10);
      return db.all<HistoryHit>(
        `SELECT m.conversation_id, c.title, m.role, snippet(messages_fts, 0, '', '', '…', 16) AS snippet, m.created_at
         FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN conversations c ON c.id = m.conversation_id
         WHERE messages_fts MATCH ? AND m.role IN ('user', 'assistant') AND c.deleted_at IS NULL${narrow}
         ORDER BY bm25(messages_fts) LIMIT ?`,
        params,
      );
    },
    forget(id: number): MemoryRow | undefined {
      const row = db.get<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE id = ?`, [id]);
      if (row) db.run('DELETE FROM memories WHERE id = ?', [id]);
      return row;
    },
    forgetKey(key: string, scopes?: readonly Scope[]): MemoryRow[] {
      const where = scopeClause(scopes);
      const rows = db.all<MemoryRow>(`SELECT ${COLUMNS} FROM memories WHERE key = ? AND ${where.sql}`, [key, ...where.params]);
      for (const row of rows) db.run('DELETE FROM memories WHERE id = ?', [row.id]);
      return rows;
    },
    /** Where memories came from: one row per (source_type, source_id), `removed` when its conversation is gone. */
    sources(): { source_type: string; source_id: string | null; memories: number; last_written: string; status: 'active' | 'removed'; title: string | null }[] {
      return db.all<{ source_type: string; source_id: string | null; memories: number; last_written: string; status: 'active' | 'removed'; title: string | null }>(
        `SELECT s.source_type, s.source_id, s.memories, s.last_written, c.title,
           CASE WHEN s.source_type IN ('conversation', 'job') AND (c.id IS NULL OR c.deleted_at IS NOT NULL) THEN 'removed' ELSE 'active' END AS status
         FROM (SELECT source_type, source_id, COUNT(*) AS memories, MAX(updated_at) AS last_written FROM memories GROUP BY source_type, source_id) s
         LEFT JOIN conversations c ON c.id = s.source_id
         ORDER BY s.last_written DESC`,
      );
    },
  };
}

export type MemoryStore = ReturnType<typeof createMemoryStore>;
