import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database.js';
import { createAuditStore } from './audit-store.js';
import { buildAuditRecord, withOutcome, type AuditOutcome, type AuditRecord } from '../core/capabilities/audit-record.js';

// The invoke boundary writes a completed call through `prepare(record).write(outcome)`, which builds the
// journal line and the row from pieces serialized while the call was in flight. Whatever the record and
// the outcome, that must land exactly as `write(withOutcome(record, outcome))` would: the same row in
// SQLite, and a journal line a crash replay turns into that same row.
const text = fc.string({ maxLength: 40, unit: 'binary' });
const recordArb: fc.Arbitrary<AuditRecord> = fc.record({
  time: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((date) => date.toISOString()),
  conversation_id: fc.option(text, { nil: null }),
  trust: fc.constantFrom('operator' as const, 'guest' as const),
  origin: fc.constantFrom('chat' as const, 'cli' as const, 'job' as const, 'mcp-inbound' as const),
  capability: text,
  kind: fc.option(fc.constantFrom('builtin' as const, 'mcp' as const, 'skill' as const), { nil: null }),
  policy_class: fc.option(fc.constantFrom('read_only' as const, 'external_api' as const, 'exec' as const), { nil: null }),
  decision: fc.constant('allow' as const),
  rule: fc.option(text, { nil: null }),
  // Besides the real words, odd ones a stored or replayed record could carry (the store keeps the real ones' serialized start).
  approval: fc.option(fc.oneof(fc.constantFrom('once' as const, 'always' as const, 'deny' as const), text as fc.Arbitrary<'once'>), { nil: null }),
  args_mode: fc.oneof(fc.constantFrom('full' as const, 'redact_args' as const, 'metadata_only' as const), text as fc.Arbitrary<'full'>),
  args: fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 4 }),
  duration_ms: fc.constant(0),
  result_bytes: fc.constant(0),
  truncated: fc.constant(false),
  error_code: fc.constant(null),
  notes: fc.constant(null),
});
const outcomeArb: fc.Arbitrary<AuditOutcome> = fc.record({
  duration_ms: fc.double({ min: -5, max: 1e7, noNaN: true }),
  result_bytes: fc.option(fc.nat(), { nil: undefined }),
  truncated: fc.option(fc.boolean(), { nil: undefined }),
  error_code: fc.option(fc.option(text, { nil: null }), { nil: undefined }),
  notes: fc.option(fc.option(fc.dictionary(text, fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null)), { maxKeys: 3 }), { nil: null }), { nil: undefined }),
}, { requiredKeys: ['duration_ms'] });

function rawRows(db: ReturnType<typeof openDatabase>) {
  return db.all<Record<string, unknown>>('SELECT * FROM audit_records ORDER BY id').map(({ id: _id, extra, ...row }) => {
    const { journal_id: _journal, ...rest } = JSON.parse(String(extra)) as Record<string, unknown>;
    return { ...row, extra: rest };
  });
}

describe('a prepared audit record', () => {
  it('lands as the same row, and journals the same line, as writing the completed record', () => {
    fc.assert(fc.property(recordArb, outcomeArb, (record, outcome) => {
      const dir = mkdtempSync(join(tmpdir(), 'fermix-audit-prep-'));
      const db = openDatabase(join(dir, 'fermix.db'), { ownsDaemonLock: true });
      const store = createAuditStore(db, { retentionDays: 90_000 });
      store.sink.write(withOutcome(record, outcome));
      store.sink.prepare!(record).write(outcome);
      // Both are still queued: the journal holds their lines, each a JSON object {id, row}.
      const lines = readFileSync(`${db.file}-audit.jsonl`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; row: unknown[] });
      expect(lines).toHaveLength(2);
      const withoutId = (row: unknown[]) => [...row.slice(0, -1), { ...(JSON.parse(String(row.at(-1))) as object), journal_id: undefined }];
      expect(withoutId(lines[1].row)).toEqual(withoutId(lines[0].row));
      expect(JSON.parse(String(lines[1].row.at(-1))).journal_id).toBe(lines[1].id);
      store.flush();
      const [written, prepared] = rawRows(db);
      expect(prepared).toEqual(written);
      db.close();
    }), { numRuns: 150 });
  });

  it('stores each record\'s own arguments when records are built before earlier ones are written', () => {
    // The arguments' JSON is kept for the record built last only: an older one is serialized again.
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-audit-prep-')), 'fermix.db'), { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 90 });
    const build = (text: string) => buildAuditRecord({ time: Date.now(), trust: 'operator', origin: 'chat', name: 'echo', capability: undefined, decision: 'allow', args: { text } });
    const first = build('first call');
    const second = build('second call');
    const third = build('third call');
    store.sink.prepare!(second).write({ duration_ms: 1 });
    store.sink.write(first);
    store.sink.prepare!(third).write({ duration_ms: 2 });
    expect(store.query().map((stored) => stored.args).reverse()).toEqual([{ text: 'second call' }, { text: 'first call' }, { text: 'third call' }]);
    db.close();
  });

  it('is written once', () => {
    const db = openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-audit-prep-')), 'fermix.db'), { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 90 });
    const record = { time: new Date().toISOString(), conversation_id: null, trust: 'operator', origin: 'chat', capability: 'echo', kind: 'mcp', policy_class: 'external_api', decision: 'allow', rule: null, approval: null, args_mode: 'full', args: {}, duration_ms: 0, result_bytes: 0, truncated: false, error_code: null, notes: null } satisfies AuditRecord;
    const handle = store.sink.prepare!(record);
    handle.write({ duration_ms: 3 });
    expect(() => handle.write({ duration_ms: 4 })).toThrow(/written once/);
    expect(store.query()).toHaveLength(1);
    db.close();
  });
});
