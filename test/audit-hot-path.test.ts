// What the MCP call-path work (bench/suites/mcp.ts, decision 0020) made cheaper must still do the whole
// job: batches bigger than one multi-row INSERT land complete and in order, a journal an older build left
// behind is replayed, memoized redaction and cached field sets follow a capability whose lists change,
// and the registry's per-trust filter follows computer-use readiness.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAuditRecord, type AuditRecord } from '../main/core/capabilities/audit-record.js';
import { createRegistry } from '../main/core/capabilities/registry.js';
import { makeCapability } from '../main/core/capabilities/test-fixtures.js';
import { createAuditStore } from '../main/store/audit-store.js';
import { openDatabase } from '../main/store/database.js';

const record = (index: number): AuditRecord => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(), conversation_id: null, trust: 'operator', origin: 'chat', capability: 'mcp_fixture_echo',
  kind: 'mcp', policy_class: 'external_api', decision: 'allow', rule: 'config: mcp_* → allow', approval: null, args_mode: 'redact_args',
  args: { index, text: `call "${index}"\n` }, duration_ms: index, result_bytes: 2, truncated: false, error_code: null, notes: { n: index },
});
const fileOf = () => join(mkdtempSync(join(tmpdir(), 'fermix-audit-hot-')), 'fermix.db');

describe('the audit hot path', () => {
  it('commits a queue longer than one INSERT statement completely, in order, every field intact', () => {
    const db = openDatabase(fileOf(), { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 100_000 });
    for (let index = 0; index < 150; index += 1) store.sink.write(record(index));
    const rows = store.query({ limit: 1000 }).reverse();
    expect(rows.map((row) => (row.args as { index: number }).index)).toEqual([...Array(150).keys()]);
    expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => a - b));
    const { id: _id, ...last } = rows[149];
    expect(last).toEqual(record(149));
    db.close();
  });

  it('replays a journal line an older build wrote ({id, record}) next to the current ones', () => {
    const file = fileOf();
    writeFileSync(`${file}-audit.jsonl`, `${JSON.stringify({ id: 'older-1', record: record(7) })}\n`);
    const db = openDatabase(file, { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 100_000 });
    store.sink.write(record(8));
    expect(store.query().map((row) => (row.args as { index: number }).index).sort()).toEqual([7, 8]);
    db.close();
  });

  it('redacts the same text the same way every time, and follows secret_fields changed in place', () => {
    const cap = makeCapability({ name: 'hot_tool', audit_behavior: 'full', metadata: { category: 'test', secret_fields: ['pin'] } });
    const build = (args: Record<string, unknown>) => buildAuditRecord({ time: 0, trust: 'operator', origin: 'chat', name: cap.name, capability: cap, decision: 'allow', rule: 'key sk-ant-api03-abcdefghijklmnop1234567890', args }).args as Record<string, unknown>;
    const first = build({ pin: '1234', code: '5678', note: 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789' });
    expect(first).toEqual({ pin: '[REDACTED]', code: '5678', note: 'token=[REDACTED:github_token]' });
    // The second time the short strings come from the memo: the same answer, never the raw secret.
    expect(build({ pin: '1234', code: '5678', note: 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789' })).toEqual(first);
    (cap.metadata.secret_fields as string[]).push('code');
    const again = buildAuditRecord({ time: 0, trust: 'operator', origin: 'chat', name: cap.name, capability: cap, decision: 'allow', rule: 'key sk-ant-api03-abcdefghijklmnop1234567890', args: { pin: '1234', code: '5678' } });
    expect(again.args).toEqual({ pin: '[REDACTED]', code: '[REDACTED]' });
    expect(again.rule).toBe('key [REDACTED:api_key]');
  });

  it('answers rejection from the per-trust filter, and follows computer-use readiness', () => {
    let ready = false;
    const registry = createRegistry({ computerUseReady: () => ready });
    const cap = makeCapability({ name: 'computer_use', policy_class: 'gui_control' });
    registry.register(cap);
    expect(registry.rejection(cap, { trust: 'operator' })?.step).toBe('policy');
    ready = true;
    expect(registry.rejection(cap, { trust: 'operator' })).toBeNull();
    expect(registry.rejection(cap, { trust: 'guest' })?.step).toBe('policy');
    expect(registry.rejection(cap, { trust: 'operator', allowed_tools: [] })?.step).toBe('allowlist');
  });
});
