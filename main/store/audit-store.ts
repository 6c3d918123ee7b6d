import type { AuditRecord, AuditSink } from '../core/capabilities/audit-record.js';
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

/**
 * The audit trail in SQLite. One row per invocation and per denial. Fields the table has no column
 * for (approval, args_mode, truncated) travel in `extra` so the schema can stay stable.
 */
export function createAuditStore(db: Database, options: { retentionDays: number; now?: () => Date }) {
  const now = options.now ?? (() => new Date());
  let writesSincePurge = 0;

  function purge(): number {
    const cutoff = new Date(now().getTime() - options.retentionDays * 86_400_000).toISOString();
    return db.run('DELETE FROM audit_records WHERE time < ?', [cutoff]).changes;
  }

  const sink: AuditSink = {
    write(record) {
      db.run(
        `INSERT INTO audit_records (time, conversation_id, trust, origin, capability, kind, policy_class, decision, rule, args, duration_ms, result_bytes, error_code, extra)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.time, record.conversation_id, record.trust, record.origin, record.capability, record.kind ?? 'unknown', record.policy_class,
          record.decision, record.rule, JSON.stringify(record.args ?? null), record.duration_ms, record.result_bytes, record.error_code,
          JSON.stringify({ approval: record.approval, args_mode: record.args_mode, truncated: record.truncated, notes: record.notes }),
        ],
      );
      // Retention is enforced as we go rather than by a timer: cheap, and nothing to schedule.
      writesSincePurge += 1;
      if (writesSincePurge >= 500) {
        writesSincePurge = 0;
        purge();
      }
    },
  };

  function query(filter: AuditQuery = {}): StoredAuditRecord[] {
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
    return rows.map((row) => {
      const extra = JSON.parse(String(row.extra ?? '{}')) as Partial<AuditRecord>;
      return {
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
      };
    });
  }

  return { sink, query, purge };
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
