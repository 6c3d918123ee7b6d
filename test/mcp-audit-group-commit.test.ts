// The audit store's group commit (made for the MCP call-path benchmark, bench/suites/mcp.ts): records of
// completed calls wait at most AUDIT_FLUSH_MS and are committed together; a refusal commits at once with
// everything queued before it; reads and the database's close never miss a queued record. Counted with
// SQL straight from the file, which does not go through the queue.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../main/core/capabilities/audit-record.js';
import { openDatabase, type Database } from '../main/store/database.js';
import { auditStoreSize, createAuditStore } from '../main/store/audit-store.js';

const record = (decision: AuditRecord['decision'], index: number): AuditRecord => ({
  time: new Date().toISOString(), conversation_id: null, trust: 'operator', origin: 'chat', capability: 'mcp_fixture_echo', kind: 'mcp',
  policy_class: 'external_api', decision, rule: 'config: mcp_*', approval: null, args_mode: 'redact_args', args: { index },
  duration_ms: 1, result_bytes: 2, truncated: false, error_code: decision === 'allow' ? null : 'permission_denied', notes: null,
});

const fileOf = () => join(mkdtempSync(join(tmpdir(), 'fermix-audit-group-')), 'fermix.db');
const committed = (db: Database) => Number(db.get<{ n: number }>('SELECT COUNT(*) AS n FROM audit_records')?.n ?? 0);

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 10_000) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('audit group commit', () => {
  it('commits completed calls together within the window, without anyone reading', async () => {
    const db = openDatabase(fileOf(), { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 30 });
    for (let index = 0; index < 10; index += 1) store.sink.write(record('allow', index));
    expect(committed(db)).toBe(0);
    await until(() => committed(db) === 10);
    db.close();
  });

  it('commits a refusal at once, with the allowed calls queued before it', () => {
    const db = openDatabase(fileOf(), { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 30 });
    store.sink.write(record('allow', 1));
    store.sink.write(record('deny', 2));
    expect(committed(db)).toBe(2);
    db.close();
  });

  it('replays the journal a crash left behind, without doubling records whose commit had landed', () => {
    const file = fileOf();
    const db = openDatabase(file, { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 30 });
    store.sink.write(record('allow', 1));
    store.flush();
    // The crash: record 1 committed but still in the journal (truncation not reached), record 2 only journaled.
    const journal = `${file}-audit.jsonl`;
    const first = readFileSync(journal, 'utf8');
    store.sink.write(record('allow', 2));
    const both = first + readFileSync(journal, 'utf8');
    writeFileSync(journal, `${both}{"id":"cut-short`);
    const copy = `${file}.crash`;
    db.checkpoint();
    copyFileSync(file, copy);
    writeFileSync(`${copy}-audit.jsonl`, readFileSync(journal, 'utf8'));
    db.close();
    const reopened = openDatabase(copy, { ownsDaemonLock: true });
    const restarted = createAuditStore(reopened, { retentionDays: 30 });
    expect(restarted.query().map((row) => (row.args as { index: number }).index).sort()).toEqual([1, 2]);
    reopened.close();
  });

  it('never lets a read or the close miss a queued record', () => {
    const file = fileOf();
    const db = openDatabase(file, { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 30 });
    store.sink.write(record('allow', 1));
    expect(store.query().map((row) => (row.args as { index: number }).index)).toEqual([1]);
    store.sink.write(record('allow', 2));
    expect(auditStoreSize(db).records).toBe(2);
    store.sink.write(record('allow', 3));
    db.close();
    const reopened = openDatabase(file, { ownsDaemonLock: true });
    expect(committed(reopened)).toBe(3);
    reopened.close();
  });
});
