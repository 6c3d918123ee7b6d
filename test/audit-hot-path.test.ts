// What the MCP call-path work (bench/suites/mcp.ts, decision 0020) made cheaper must still do the whole
// job: batches bigger than one multi-row INSERT land complete and in order, a journal an older build left
// behind is replayed, memoized redaction and cached field sets follow a capability whose lists change,
// and the registry's per-trust filter follows computer-use readiness.
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAuditRecord, createMemoryAuditSink, type AuditRecord } from '../main/core/capabilities/audit-record.js';
import { createInvoker } from '../main/core/capabilities/invoke.js';
import { createPermissionGate } from '../main/core/capabilities/permission-gate.js';
import { createRegistry } from '../main/core/capabilities/registry.js';
import { createMemoryRuleStore } from '../main/core/capabilities/rules.js';
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

  it('stores a record prepared while its call ran exactly as one written whole, journaling it only when written', () => {
    const file = fileOf();
    const db = openDatabase(file, { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 100_000 });
    const whole = record(5);
    const prepared = store.sink.prepare!({ ...whole, duration_ms: 0, result_bytes: 0, truncated: false, notes: null });
    expect(statSync(`${file}-audit.jsonl`).size).toBe(0);
    prepared.write({ duration_ms: whole.duration_ms, result_bytes: whole.result_bytes, truncated: whole.truncated, error_code: whole.error_code, notes: whole.notes });
    expect(readFileSync(`${file}-audit.jsonl`, 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
    expect(() => prepared.write({ duration_ms: 1 })).toThrow(/once/);
    const [{ id: _id, ...stored }] = store.query();
    expect(stored).toEqual(whole);
    db.close();
  });

  it('replays a prepared record\'s journal line that a crash left uncommitted', () => {
    const file = fileOf();
    const db = openDatabase(file, { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 100_000 });
    store.sink.prepare!(record(9)).write({ duration_ms: 9, result_bytes: 2, notes: { n: 9 } });
    // The crash: the database file as it is (the record waits for its group commit), and the journal.
    db.checkpoint();
    const copy = `${file}.crash`;
    copyFileSync(file, copy);
    writeFileSync(`${copy}-audit.jsonl`, readFileSync(`${file}-audit.jsonl`, 'utf8'));
    db.close();
    const reopened = openDatabase(copy, { ownsDaemonLock: true });
    const [{ id: _id, ...replayed }] = createAuditStore(reopened, { retentionDays: 100_000 }).query();
    expect(replayed).toEqual(record(9));
    reopened.close();
  });

  it('gives the invoke boundary the same records through a store that prepares them as through a plain sink', async () => {
    const registry = createRegistry();
    registry.register(makeCapability({ name: 'mcp_fixture_echo', kind: 'mcp', policy_class: 'external_api', audit_behavior: 'redact_args', executor: async (args) => ({ text: String(args.text), audit: { token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' } }) }));
    registry.register(makeCapability({ name: 'mcp_fixture_fail', kind: 'mcp', policy_class: 'external_api', executor: async () => { throw new Error('upstream said no'); } }));
    const gate = createPermissionGate({ rules: createMemoryRuleStore([{ permission: 'mcp_*', action: 'allow', source: 'config' }]) });
    const db = openDatabase(fileOf(), { ownsDaemonLock: true });
    const store = createAuditStore(db, { retentionDays: 100_000 });
    const memory = createMemoryAuditSink();
    const calls = async (audit: typeof memory | typeof store.sink) => {
      const invoker = createInvoker({ registry, gate, audit });
      await invoker.execute('mcp_fixture_echo', { text: 'hello', api_key: 'sk-ant-api03-abcdefghijklmnop1234567890' }, { trust: 'operator', origin: 'chat' });
      await expect(invoker.execute('mcp_fixture_fail', {}, { trust: 'operator', origin: 'chat' })).rejects.toMatchObject({ code: 'tool_failed' });
    };
    await calls(memory);
    await calls(store.sink);
    const comparable = ({ time: _time, duration_ms: _duration, ...rest }: AuditRecord) => rest;
    const stored = store.query().reverse().map(({ id: _id, ...rest }) => comparable(rest));
    expect(stored).toEqual(memory.records.map(comparable));
    expect(stored[0]).toMatchObject({ decision: 'allow', args: { text: 'hello', api_key: '[REDACTED]' }, result_bytes: 5, notes: { token: '[REDACTED:github_token]' } });
    expect(stored[1]).toMatchObject({ decision: 'allow', error_code: 'tool_failed' });
    db.close();
  });
});
