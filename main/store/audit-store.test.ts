import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './database.js';
import { auditToCsv, auditToJsonl, createAuditStore } from './audit-store.js';
import type { AuditRecord } from '../core/capabilities/audit-record.js';

function record(overrides: Partial<AuditRecord>): AuditRecord {
  return {
    time: new Date().toISOString(), conversation_id: null, trust: 'operator', origin: 'chat', capability: 'file_read', kind: 'builtin',
    policy_class: 'read_only', decision: 'allow', rule: 'default', approval: null, args_mode: 'full', args: { path: 'a' },
    duration_ms: 1, result_bytes: 2, truncated: false, error_code: null, notes: null, ...overrides,
  };
}

describe('audit store', () => {
  const open = () => openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-audit-')), 'fermix.db'), { ownsDaemonLock: true });

  it('stores, filters and round-trips every field', () => {
    const store = createAuditStore(open(), { retentionDays: 90 });
    store.sink.write(record({ capability: 'shell', decision: 'deny', error_code: 'permission_denied', approval: 'deny', args: { command: 'rm x, "y"' } }));
    store.sink.write(record({}));
    const denied = store.query({ decision: 'deny' });
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ capability: 'shell', approval: 'deny', args: { command: 'rm x, "y"' }, truncated: false });
    expect(store.query({ capability: 'file_read' })).toHaveLength(1);
    const csv = auditToCsv(denied);
    expect(csv).toContain('"{""command"":""rm x, \\""y\\""""}"');
    expect(JSON.parse(auditToJsonl(denied).trim()).capability).toBe('shell');
  });

  it('drops records older than the retention window', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const store = createAuditStore(open(), { retentionDays: 7, now: () => now });
    store.sink.write(record({ time: '2025-12-01T00:00:00.000Z' }));
    store.sink.write(record({ time: '2025-12-30T00:00:00.000Z' }));
    now = new Date('2026-01-02T00:00:00Z');
    expect(store.purge()).toBe(1);
    expect(store.query().map((row) => row.time)).toEqual(['2025-12-30T00:00:00.000Z']);
  });
});

describe('audit store size cap', () => {
  const open = () => openDatabase(join(mkdtempSync(join(tmpdir(), 'fermix-audit-cap-')), 'fermix.db'), { ownsDaemonLock: true });
  const bulky = (index: number) => record({ args: { index, blob: 'x'.repeat(1000) } });

  it('estimates its size and prunes oldest-first to below the cap', () => {
    const db = open();
    const store = createAuditStore(db, { retentionDays: 3650, maxSizeMb: 1 });
    for (let index = 0; index < 1500; index += 1) store.sink.write(bulky(index));
    const before = store.size();
    expect(before.records).toBe(1500);
    expect(before.bytes).toBeGreaterThan(1024 * 1024);
    const removed = store.purge();
    expect(removed).toBeGreaterThan(0);
    const after = store.size();
    expect(after.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(after.records).toBe(1500 - removed);
    // Oldest first: the newest record stays, the first ones are gone.
    const kept = store.query({ limit: 5000 }).map((row) => (row.args as { index: number }).index);
    expect(Math.max(...kept)).toBe(1499);
    expect(Math.min(...kept)).toBe(removed);
    db.close();
  });

  it('is enforced as records are written and when the store opens', async () => {
    const db = open();
    const unbounded = createAuditStore(db, { retentionDays: 3650 });
    for (let index = 0; index < 1200; index += 1) unbounded.sink.write(bulky(index));
    expect(unbounded.size().bytes).toBeGreaterThan(1024 * 1024);
    // Opening with a cap (a lowered max_size_mb) prunes at once.
    const capped = createAuditStore(db, { retentionDays: 3650, maxSizeMb: 1 });
    expect(capped.size().bytes).toBeLessThanOrEqual(1024 * 1024);
    const after = capped.size().records;
    for (let index = 0; index < 500; index += 1) capped.sink.write(bulky(2000 + index));
    // The 500th write schedules the purge right after the call.
    await new Promise((resolve) => setImmediate(resolve));
    expect(capped.size().bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(capped.size().records).toBeLessThan(after + 500);
    db.close();
  });
});
