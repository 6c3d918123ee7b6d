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
