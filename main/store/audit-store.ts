import { outcomeFields, recordedArgsJson, scrubStoredRecord, type AuditRecord, type AuditSink } from '../core/capabilities/audit-record.js';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import type { Database } from './database.js';

export interface AuditQuery {
  since?: string;
  capability?: string;
  decision?: string;
  conversation_id?: string;
  limit?: number;
}

export interface StoredAuditRecord extends AuditRecord {
  id: number;
}

const COLUMNS = ['id', 'time', 'conversation_id', 'trust', 'origin', 'capability', 'kind', 'policy_class', 'decision', 'rule', 'approval', 'args_mode', 'args', 'duration_ms', 'result_bytes', 'truncated', 'error_code'] as const;

export interface AuditStoreSize {
  records: number;
  /** An estimate: the record count times the average size of the newest records, plus row overhead. */
  bytes: number;
}

/** Bytes SQLite spends per audit row beyond its values (record header, rowid, two index entries). */
const ROW_OVERHEAD_BYTES = 64;
const VALUE_BYTES = ['time', 'conversation_id', 'trust', 'origin', 'capability', 'kind', 'policy_class', 'decision', 'rule', 'args', 'error_code', 'extra']
  .map((column) => `COALESCE(LENGTH(CAST(${column} AS BLOB)), 0)`).join(' + ');

/** One audit_records row's values, in INSERT_COLUMNS order: built once per record, for its journal line and its insert. */
type AuditRow = (string | number | null)[];
const INSERT_COLUMNS = 'time, conversation_id, trust, origin, capability, kind, policy_class, decision, rule, args, duration_ms, result_bytes, error_code, extra';
const ROW_COLUMNS = 14;
/** 64 rows × 14 values stay far below SQLite's 32,766 bound parameters. */
const ROWS_PER_INSERT = 64;
const insertStatements = new Map<number, string>();

function insertSql(rows: number): string {
  let sql = insertStatements.get(rows);
  if (sql === undefined) {
    const one = `(${new Array<string>(ROW_COLUMNS).fill('?').join(', ')})`;
    insertStatements.set(rows, (sql = `INSERT INTO audit_records (${INSERT_COLUMNS}) VALUES ${new Array<string>(rows).fill(one).join(', ')}`));
  }
  return sql;
}

/** The row's first values: known before the call finishes (a prepared record serializes them while it runs). */
function auditRowHead(record: AuditRecord): AuditRow {
  return [
    record.time, record.conversation_id, record.trust, record.origin, record.capability, record.kind ?? 'unknown', record.policy_class,
    record.decision, record.rule, recordedArgsJson(record.args),
  ];
}

/**
 * `extra` (the fields the table has no column for) in one format for every writer, in two parts: what is
 * known before the call finishes (a prepared record builds it while its call runs), then the outcome.
 * Defaults cover records from a journal an older build wrote.
 */
function extraStart(record: Pick<AuditRecord, 'approval' | 'args_mode'>): string {
  return `{"approval":${JSON.stringify(record.approval ?? null)},"args_mode":${JSON.stringify(record.args_mode ?? 'full')},"truncated":`;
}

/** `extra` after its start: the outcome's fields and the journal id. */
function extraTail(truncated: boolean, notes: AuditRecord['notes'] | undefined, journalId: string | null): string {
  return `${truncated === true},"notes":${notes == null ? 'null' : JSON.stringify(notes)}${journalId ? `,"journal_id":"${journalId}"` : ''}}`;
}

function extraJson(start: string, truncated: boolean, notes: AuditRecord['notes'] | undefined, journalId: string | null): string {
  return `${start}${extraTail(truncated, notes, journalId)}`;
}

/** A JSON text as the inside of a JSON string literal (quotes and backslashes escaped), without the quotes. */
const asStringContent = (json: string): string => JSON.stringify(json).slice(1, -1);

/**
 * `extra`'s start for each approval and args mode a call can have, as JSON and as the inside of the
 * JSON string the journal line carries it in: made once, not serialized twice per call.
 */
const extraStarts = new Map<string, { json: string; escaped: string }>();
const KEPT_APPROVALS = new Set(['once', 'always', 'deny']);
const KEPT_ARGS_MODES = new Set(['full', 'redact_args', 'metadata_only']);
function preparedExtraStart(record: Pick<AuditRecord, 'approval' | 'args_mode'>): { json: string; escaped: string } {
  const approval = record.approval ?? null;
  const mode = record.args_mode ?? 'full';
  // Only the fixed words are kept (so no two records' starts can share a key); anything else is made afresh.
  const key = (approval === null || KEPT_APPROVALS.has(approval)) && KEPT_ARGS_MODES.has(mode) ? `${approval ?? ''} ${mode}` : undefined;
  let start = key === undefined ? undefined : extraStarts.get(key);
  if (start === undefined) {
    const json = extraStart(record);
    start = { json, escaped: asStringContent(json) };
    if (key !== undefined) extraStarts.set(key, start);
  }
  return start;
}

/** The row's last values: the call's outcome, and `extra`. */
function auditRowTail(record: AuditRecord, journalId: string | null): AuditRow {
  return [record.duration_ms, record.result_bytes, record.error_code, extraJson(extraStart(record), record.truncated, record.notes, journalId)];
}

function auditRow(record: AuditRecord, journalId: string | null): AuditRow {
  return [...auditRowHead(record), ...auditRowTail(record, journalId)];
}

/** Each store's group-commit queue by database, so a size read straight from the database (doctor) counts it. */
const queues = new WeakMap<Database, () => void>();

/**
 * The audit store's size without scanning it: ids only grow and rows go oldest-first, so the id range
 * is the record count, and the newest 200 rows give the average size.
 */
export function auditStoreSize(db: Database): AuditStoreSize & { firstId: number; lastId: number; averageBytes: number } {
  queues.get(db)?.();
  // Two subqueries, not MIN(id), MAX(id) in one: SQLite answers a lone MIN or MAX from the rowid b-tree's
  // edge, but both together scan the whole table (ms at 20,000 rows, every 500 calls; decision 0020).
  const range = db.get<{ first: number | null; last: number | null }>('SELECT (SELECT MIN(id) FROM audit_records) AS first, (SELECT MAX(id) FROM audit_records) AS last');
  if (!range || range.first === null || range.last === null) return { records: 0, bytes: 0, firstId: 0, lastId: 0, averageBytes: 0 };
  const sample = db.get<{ average: number | null }>(`SELECT AVG(${VALUE_BYTES}) AS average FROM (SELECT * FROM audit_records ORDER BY id DESC LIMIT 200)`);
  const averageBytes = (sample?.average ?? 0) + ROW_OVERHEAD_BYTES;
  const records = range.last - range.first + 1;
  return { records, bytes: Math.round(records * averageBytes), firstId: range.first, lastId: range.last, averageBytes };
}

/**
 * The audit trail in SQLite. One row per invocation and per denial. Fields the table has no column
 * for (approval, args_mode, truncated) travel in `extra` so the schema can stay stable.
 * Two bounds, both enforced oldest-first: `[audit] retention_days` and `[audit] max_size_mb`.
 */
/** How long a completed call's audit record may wait for its group commit, and the most that wait together. */
export const AUDIT_FLUSH_MS = 20;
export const AUDIT_FLUSH_RECORDS = 256;

export function createAuditStore(db: Database, options: { retentionDays: number; maxSizeMb?: number; now?: () => Date }) {
  const now = options.now ?? (() => new Date());
  const maxBytes = (options.maxSizeMb ?? Number.POSITIVE_INFINITY) * 1024 * 1024;
  let writesSincePurge = 0;

  /** Drops the oldest records until the store is at 90% of its cap (headroom, so it does not prune on every check). */
  function enforceSizeCap(): number {
    const size = auditStoreSize(db);
    if (size.bytes <= maxBytes) return 0;
    const keep = Math.max(1, Math.floor((maxBytes * 0.9) / size.averageBytes));
    return db.run('DELETE FROM audit_records WHERE id <= ?', [size.lastId - keep]).changes;
  }

  /** Retention first, then the size cap; one transaction. Returns how many records went. */
  function purge(): number {
    flush();
    const cutoff = new Date(now().getTime() - options.retentionDays * 86_400_000).toISOString();
    return db.transaction(() => db.run('DELETE FROM audit_records WHERE time < ?', [cutoff]).changes + enforceSizeCap());
  }

  /** Inserts rows (ROW_COLUMNS values each) with one statement per ROWS_PER_INSERT: preparing a statement costs more than a row. */
  function insert(rows: readonly AuditRow[]): void {
    for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
      const chunk = rows.slice(start, start + ROWS_PER_INSERT);
      db.run(insertSql(chunk.length), chunk.flat());
    }
  }

  /**
   * Group commit behind a journal. An autocommitted INSERT touches the table and both indexes and
   * writes those pages to the WAL: ~0.05-0.1 ms on the call's path, more than a whole local MCP round
   * trip (bench/suites/mcp.ts). So a record is first appended to `<db>-audit.jsonl` with one write(2)
   * — the same durability as a WAL commit under synchronous = NORMAL: in the OS's hands before the
   * call is acknowledged, so a kill -9 loses nothing (test/daemon-crash.test.ts) — and the queue is
   * committed to SQLite in one transaction within AUDIT_FLUSH_MS (or AUDIT_FLUSH_RECORDS), then the
   * journal is emptied. A refusal commits at once. Every read (query, purge, size) and the database's
   * close commit the queue first; opening the store replays a journal a crash left behind, skipping
   * records whose commit landed before the journal was emptied (each line carries its own id).
   * One audit store per database file.
   */
  const journalFile = `${db.file}-audit.jsonl`;
  const journalPrefix = `${randomBytes(6).toString('hex')}-`;
  let journalSequence = 0;
  let pending: AuditRow[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let journal: number | undefined;

  function flush(): void {
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    flushTimer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    if (batch.length <= ROWS_PER_INSERT) insert(batch);
    else db.transaction(() => insert(batch));
    if (journal !== undefined) ftruncateSync(journal, 0);
  }
  queues.set(db, flush);

  function replayJournal(): void {
    if (!existsSync(journalFile)) return;
    const lines = readFileSync(journalFile, 'utf8').split('\n').filter((line) => line !== '');
    if (lines.length === 0) return;
    // A crash between the commit and the truncation leaves committed lines: at most the last batch.
    const recent = new Set(db.all<{ extra: string }>('SELECT extra FROM audit_records ORDER BY id DESC LIMIT ?', [2 * AUDIT_FLUSH_RECORDS])
      .map((row) => (JSON.parse(row.extra ?? '{}') as { journal_id?: string }).journal_id));
    const rows: AuditRow[] = [];
    for (const line of lines) {
      // A line is {id, row} (the row as inserted); a journal from an older build has {id, record}.
      let entry: { id: string; row?: AuditRow; record?: AuditRecord };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue; // a line cut short by the crash: its call was never acknowledged
      }
      if (recent.has(entry.id)) continue;
      if (Array.isArray(entry.row) && entry.row.length === ROW_COLUMNS) rows.push(entry.row);
      else if (entry.record !== undefined) rows.push(auditRow(entry.record, entry.id));
    }
    db.transaction(() => insert(rows));
  }
  replayJournal();
  // Emptied once replayed; O_APPEND so that every write lands at the end, also after ftruncate(0).
  writeFileSync(journalFile, '', { mode: 0o600 });
  journal = openSync(journalFile, 'a');

  // The store does not own the database, but its queue must reach the file before the file closes.
  db.beforeClose(() => {
    flush();
    if (journal !== undefined) closeSync(journal);
    journal = undefined;
    rmSync(journalFile, { force: true });
  });

  const nextJournalId = () => `${journalPrefix}${(journalSequence += 1).toString(36)}`;

  /** Journals one row (`line` is its journal line) and queues it for the group commit. */
  function append(row: AuditRow, line: string, decision: AuditRecord['decision']): void {
    if (journal !== undefined) writeSync(journal, line);
    pending.push(row);
    // Retention and the cap are enforced as we go rather than by a timer: nothing to schedule. Right
    // after the call rather than inside it, so a large delete never lands on a tool call's path.
    writesSincePurge += 1;
    if (writesSincePurge >= 500) {
      writesSincePurge = 0;
      flush();
      setImmediate(() => {
        try {
          purge();
        } catch {
          // The store closed meanwhile, or SQLite refused: the next 500 writes try again.
        }
      });
      return;
    }
    if (decision !== 'allow' || pending.length >= AUDIT_FLUSH_RECORDS) return flush();
    flushTimer ??= setTimeout(() => {
      try {
        flush();
      } catch {
        // Closed meanwhile (its close flushed what it could); nothing left to write to.
      }
    }, AUDIT_FLUSH_MS);
  }

  const sink: AuditSink = {
    write(record) {
      const id = nextJournalId();
      const row = auditRow(record, id);
      // The id is hex and base-36 digits: nothing in it needs JSON escaping.
      append(row, `{"id":"${id}","row":${JSON.stringify(row)}}\n`, record.decision);
    },
    // The invoke boundary prepares a record while its call is in flight (a local MCP server is working
    // on the request meanwhile, on the other core): the arguments' JSON, the row's first values and the
    // journal line up to the outcome. `write` then adds the outcome and journals it, as `sink.write` does.
    prepare(record) {
      const id = nextJournalId();
      const head = auditRowHead(record);
      const linePrefix = `{"id":"${id}","row":${JSON.stringify(head).slice(0, -1)},`;
      const start = preparedExtraStart(record);
      let written = false;
      return {
        write(outcome) {
          if (written) throw new Error('a prepared audit record is written once');
          written = true;
          // Only the outcome is serialized here: this runs after the call's answer, before it is returned.
          // `extra` goes into the row as JSON and into the journal line escaped, from the same pieces.
          // Without notes its tail holds only quotes to escape (true/false, and a journal id of hex and
          // base-36 digits), so no second serialization is needed.
          const { duration_ms, result_bytes, truncated, error_code, notes } = outcomeFields(outcome);
          const tail = extraTail(truncated, notes, id);
          const extra = `${start.json}${tail}`;
          const escapedTail = notes == null ? tail.replaceAll('"', '\\"') : asStringContent(tail);
          const errorJson = error_code === null ? 'null' : JSON.stringify(error_code);
          const row = head.slice();
          row.push(duration_ms, result_bytes, error_code, extra);
          append(row, `${linePrefix}${duration_ms},${result_bytes},${errorJson},"${start.escaped}${escapedTail}"]}\n`, record.decision);
        },
      };
    },
  };

  function query(filter: AuditQuery = {}): StoredAuditRecord[] {
    flush();
    const where: string[] = [];
    const params: (string | number)[] = [];
    const conditions: [string, string | undefined][] = [
      ['time >= ?', filter.since],
      ['capability = ?', filter.capability],
      ['decision = ?', filter.decision],
      ['conversation_id = ?', filter.conversation_id],
    ];
    for (const [clause, value] of conditions) {
      if (value === undefined) continue;
      where.push(clause);
      params.push(value);
    }
    params.push(filter.limit ?? 1000);
    const rows = db.all<Record<string, unknown>>(
      `SELECT * FROM audit_records ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
      params,
    );
    // Scrubbed on the way out too: rows written before the secret scanner (or by an older build) must not
    // reach a query, an export or `fermix audit` raw.
    return rows.map((row) => {
      const extra = JSON.parse(String(row.extra ?? '{}')) as Partial<AuditRecord>;
      return scrubStoredRecord({
        id: Number(row.id),
        time: String(row.time),
        conversation_id: (row.conversation_id as string | null) ?? null,
        trust: row.trust as AuditRecord['trust'],
        origin: row.origin as AuditRecord['origin'],
        capability: String(row.capability),
        kind: row.kind === 'unknown' ? null : (row.kind as AuditRecord['kind']),
        policy_class: (row.policy_class as AuditRecord['policy_class']) ?? null,
        decision: row.decision as AuditRecord['decision'],
        rule: (row.rule as string | null) ?? null,
        approval: extra.approval ?? null,
        args_mode: extra.args_mode ?? 'full',
        args: JSON.parse(String(row.args ?? 'null')),
        duration_ms: Number(row.duration_ms ?? 0),
        result_bytes: Number(row.result_bytes ?? 0),
        truncated: extra.truncated ?? false,
        error_code: (row.error_code as string | null) ?? null,
        notes: extra.notes ?? null,
      });
    });
  }

  // A store that grew past a lowered cap (or a long retention) is brought back within bounds at start.
  purge();

  return { sink, query, purge, flush, size: () => auditStoreSize(db) };
}

export type AuditStore = ReturnType<typeof createAuditStore>;

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function auditToJsonl(records: StoredAuditRecord[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + (records.length ? '\n' : '');
}

export function auditToCsv(records: StoredAuditRecord[]): string {
  const lines = [COLUMNS.join(',')];
  for (const record of records) lines.push(COLUMNS.map((column) => csvCell(record[column as keyof StoredAuditRecord])).join(','));
  return lines.join('\n') + '\n';
}
