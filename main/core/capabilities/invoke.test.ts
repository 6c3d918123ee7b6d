import { describe, expect, it } from 'vitest';
import { FermixError } from '../errors.js';
import { createApprovalQueue } from './approvals.js';
import { createMemoryAuditSink } from './audit-record.js';
import type { Capability } from './capability.js';
import { createInvoker, unwrapToolCall, type InvokeContext } from './invoke.js';
import { createPermissionGate, type GateMode } from './permission-gate.js';
import { createRegistry } from './registry.js';
import { createMemoryRuleStore, type Rule } from './rules.js';
import { newAbortController } from './runtime.js';
import { makeCapability } from './test-fixtures.js';

/** The call reaches the gate after argument validation (which loads ajv once): wait for its card. */
async function cardShown(approvals: { list(): unknown[] }): Promise<void> {
  for (let i = 0; i < 100 && approvals.list().length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

const pathSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false };
const commandSchema = { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] };

function setup(options: { rules?: Rule[]; mode?: GateMode; extra?: Capability[] } = {}) {
  const runs: { name: string; args: Record<string, unknown>; signal?: AbortSignal }[] = [];
  const record = (name: string) => async (args: Record<string, unknown>, ctx: { signal: AbortSignal }) => {
    runs.push({ name, args, signal: ctx.signal });
    return { text: `${name} ok` };
  };
  const registry = createRegistry();
  const caps = [
    makeCapability({ name: 'file_read', parameters: pathSchema, executor: record('file_read') }),
    makeCapability({ name: 'memory_recall', parameters: { type: 'object', properties: { key: { type: 'string' } } }, metadata: { category: 'memory' }, executor: record('memory_recall') }),
    makeCapability({ name: 'shell', policy_class: 'exec', parameters: commandSchema, executor: record('shell') }),
    makeCapability({ name: 'tool_call', metadata: { category: 'system' }, executor: async () => ({ text: 'malformed_call: pass {name, arguments}' }) }),
    ...(options.extra ?? []),
  ];
  for (const cap of caps) registry.register(cap);
  const rules = createMemoryRuleStore(options.rules ?? []);
  const gate = createPermissionGate({ rules, mode: options.mode });
  const approvals = createApprovalQueue({ rules });
  const audit = createMemoryAuditSink();
  const invoker = createInvoker({ registry, gate, approvals, audit });
  return { registry, rules, approvals, audit, invoker, runs };
}

const operator: InvokeContext = { trust: 'operator', origin: 'chat' };
const guest: InvokeContext = { trust: 'guest', origin: 'chat' };

async function failure(promise: Promise<unknown>): Promise<FermixError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FermixError);
    return error as FermixError;
  }
  throw new Error('expected the call to fail');
}

describe('refusals happen before anything runs, and are audited', () => {
  it('unknown name → unknown_capability with a hint naming the list command', async () => {
    const { invoker, audit } = setup();
    const error = await failure(invoker.execute('rm_everything', {}, operator));
    expect(error.code).toBe('unknown_capability');
    expect(error.hint).toContain('fermix capabilities list');
    expect(audit.records).toMatchObject([{ capability: 'rm_everything', decision: 'rejected', error_code: 'unknown_capability' }]);
  });

  it('a guest cannot run exec; the denial is audited and the executor never runs', async () => {
    const { invoker, audit, runs } = setup({ mode: 'auto' });
    const error = await failure(invoker.execute('shell', { command: 'id' }, guest));
    expect(error.code).toBe('policy_denied');
    expect(error.message).toMatch(/policy class exec/);
    expect(runs).toEqual([]);
    expect(audit.records).toMatchObject([{ capability: 'shell', trust: 'guest', decision: 'deny', rule: 'filter: policy', error_code: 'policy_denied' }]);
  });

  it('a missing trust is a guest: no owner data even though file_read is read_only', async () => {
    const { invoker, runs, audit } = setup();
    const error = await failure(invoker.execute('file_read', { path: 'notes.md' }, { origin: 'mcp-inbound' }));
    expect(error.code).toBe('policy_denied');
    expect(error.message).toMatch(/owner's own data/);
    expect(runs).toEqual([]);
    expect(audit.records[0].trust).toBe('guest');
    await expect(invoker.execute('memory_recall', {}, { origin: 'mcp-inbound' })).resolves.toEqual({ text: 'memory_recall ok' });
  });

  it("the caller's filter is enforced on calls exactly as on lists", async () => {
    const hidden = makeCapability({ name: 'mcp_x_secret', kind: 'mcp', policy_class: 'external_api', hidden_from_agent: true, metadata: { category: 'mcp' } });
    const { invoker, runs } = setup({ mode: 'auto', extra: [hidden] });
    expect((await failure(invoker.execute('shell', { command: 'ls' }, { ...operator, filter: { allowed_tools: ['file_read'] } }))).data).toMatchObject({ step: 'allowlist' });
    expect((await failure(invoker.execute('shell', { command: 'ls' }, { ...operator, filter: { allowed_tools: [] } }))).code).toBe('policy_denied');
    expect((await failure(invoker.execute('shell', { command: 'ls' }, { ...operator, filter: { policy_classes: ['read_only'] } }))).data).toMatchObject({ step: 'policy' });
    expect((await failure(invoker.execute('mcp_x_secret', {}, operator))).data).toMatchObject({ step: 'hidden' });
    expect(runs).toEqual([]);
    await expect(invoker.execute('mcp_x_secret', {}, { ...operator, filter: { include_hidden: true } })).resolves.toBeDefined();
  });

  it('invalid arguments name the field and what was expected', async () => {
    const { invoker, runs, audit } = setup();
    expect((await failure(invoker.execute('file_read', {}, operator))).message).toBe('Invalid arguments for file_read: `path` is required.');
    expect((await failure(invoker.execute('file_read', { path: 7 }, operator))).message).toContain('`path` must be string');
    expect((await failure(invoker.execute('file_read', { path: 'a', mode: 'x' }, operator))).message).toContain('`mode` is not an accepted argument');
    expect((await failure(invoker.execute('file_read', ['a'], operator))).message).toContain('must be a JSON object');
    expect(runs).toEqual([]);
    expect(audit.records.map((r) => [r.decision, r.error_code])).toEqual(Array(4).fill(['rejected', 'invalid_arguments']));
  });

  it('no executor → not_implemented saying what brings it, without asking anyone', async () => {
    const planned = makeCapability({ name: 'voice_call', policy_class: 'exec', executor: undefined, metadata: { category: 'system', not_implemented: 'the voice milestone (issue #41)' } });
    const { invoker, approvals, audit } = setup({ extra: [planned] });
    const error = await failure(invoker.execute('voice_call', {}, operator));
    expect(error.code).toBe('not_implemented');
    expect(error.message).toContain('issue #41');
    expect(approvals.list()).toEqual([]);
    expect(audit.records[0].error_code).toBe('not_implemented');
  });
});

describe('the gate', () => {
  it('a deny rule → permission_denied naming the rule', async () => {
    const { invoker, runs, audit } = setup({ mode: 'auto', rules: [{ permission: 'shell', pattern: 'rm *', action: 'deny', source: 'config' }] });
    const error = await failure(invoker.execute('shell', { command: 'cd / && rm -rf x' }, operator));
    expect(error.code).toBe('permission_denied');
    expect(error.hint).toContain('config: shell "rm *" → deny');
    expect(runs).toEqual([]);
    expect(audit.records).toMatchObject([{ decision: 'deny', rule: 'config: shell "rm *" → deny' }]);
    await expect(invoker.execute('shell', { command: 'ls' }, operator)).resolves.toEqual({ text: 'shell ok' });
  });

  it('ask parks the call until a person answers once', async () => {
    const { invoker, approvals, runs, audit } = setup();
    const pending = invoker.execute('shell', { command: 'make' }, { ...operator, conversationId: 'c1' });
    await cardShown(approvals);
    expect(runs).toEqual([]);
    const [card] = approvals.list();
    expect(card).toMatchObject({ capability: 'shell', conversation_id: 'c1', always_covers: { permission: 'shell', pattern: 'make' } });
    approvals.answer(card.id, 'once');
    await expect(pending).resolves.toEqual({ text: 'shell ok' });
    expect(audit.records).toMatchObject([{ decision: 'allow', approval: 'once', rule: 'default: mutating → ask', conversation_id: 'c1' }]);
  });

  it('a declined approval → permission_denied, audited with the answer', async () => {
    const { invoker, approvals, runs, audit } = setup();
    const pending = invoker.execute('shell', { command: 'make' }, operator);
    await cardShown(approvals);
    approvals.answer(approvals.list()[0].id, 'deny');
    expect((await failure(pending)).message).toMatch(/declined/);
    expect(runs).toEqual([]);
    expect(audit.records).toMatchObject([{ decision: 'deny', approval: 'deny' }]);
  });

  it('unattended origins never ask, even if the context claims to be interactive', async () => {
    const { invoker, approvals, runs } = setup();
    for (const origin of ['job', 'subagent', 'mcp-inbound'] as const) {
      const error = await failure(invoker.execute('shell', { command: 'make' }, { trust: 'operator', origin, interactive: true }));
      expect(error.code).toBe('permission_denied');
      expect(error.message).toContain('action = "allow"');
    }
    expect(approvals.list()).toEqual([]);
    expect(runs).toEqual([]);
  });

  it('aborting the turn while parked cancels the card', async () => {
    const { invoker, approvals, audit } = setup();
    const controller = newAbortController();
    const pending = invoker.execute('shell', { command: 'make' }, { ...operator, signal: controller.signal });
    await cardShown(approvals);
    controller.abort();
    expect((await failure(pending)).code).toBe('cancelled');
    expect(approvals.list()).toEqual([]);
    expect(audit.records[0]).toMatchObject({ decision: 'deny', error_code: 'cancelled' });
  });
});

describe('running', () => {
  it('times out, aborts the executor signal and says so', async () => {
    let seen: AbortSignal | undefined;
    const slow = makeCapability({ name: 'slow', timeout_ms: 40, executor: (_args, ctx) => {
      seen = ctx.signal;
      return new Promise(() => {});
    } });
    const { invoker, audit } = setup({ extra: [slow] });
    const started = Date.now();
    const error = await failure(invoker.execute('slow', {}, operator));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('40 ms');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen?.aborted).toBe(true);
    expect(audit.records[0]).toMatchObject({ decision: 'allow', error_code: 'timeout' });
  });

  it('aborting the turn while the tool runs cancels it and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    const hang = makeCapability({ name: 'hang', executor: (_args, ctx) => {
      seen = ctx.signal;
      return new Promise(() => {});
    } });
    const { invoker, audit } = setup({ extra: [hang] });
    const controller = newAbortController();
    const pending = invoker.execute('hang', {}, { ...operator, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect((await failure(pending)).code).toBe('cancelled');
    expect(seen?.aborted).toBe(true);
    expect(audit.records[0].error_code).toBe('cancelled');
  });

  it('truncates output past 100,000 characters and says how to get the rest', async () => {
    const big = makeCapability({ name: 'big_read', parameters: { type: 'object', properties: { offset: { type: 'integer' } } }, executor: async () => ({ text: 'x'.repeat(150_000) }) });
    const { invoker, audit } = setup({ extra: [big] });
    const result = await invoker.execute('big_read', {}, operator);
    expect(result.text.startsWith('x'.repeat(100_000) + '\n\n[Output truncated')).toBe(true);
    expect(result.text).toContain('showed the first 100,000 of 150,000 characters; 50,000 were cut');
    expect(result.text).toContain('`offset`');
    expect(audit.records[0]).toMatchObject({ truncated: true, result_bytes: 150_000 });
  });

  it('never cuts an emoji in half', async () => {
    const emoji = makeCapability({ name: 'emoji', executor: async () => ({ text: 'a' + '😀'.repeat(60_000) }) });
    const { invoker } = setup({ extra: [emoji] });
    const text = (await invoker.execute('emoji', {}, operator)).text;
    const body = text.slice(0, text.indexOf('\n\n[Output truncated'));
    expect(body.length).toBe(99_999);
    expect(body.endsWith('😀')).toBe(true);
  });

  it('maps errors: FermixError codes are kept, anything else is tool_failed with a redacted line', async () => {
    const failing = [
      makeCapability({ name: 'sandboxed', executor: async () => { throw new FermixError({ code: 'sandbox_denied', message: 'Path outside the sandbox.', hint: 'fermix grant path X' }); } }),
      makeCapability({ name: 'broken', executor: async () => { throw new Error('disk on fire with sk-proj-4fK9sQ2mZx7Lb1VwT8nR3yUe\nstack line'); } }),
      makeCapability({ name: 'sync_throw', executor: () => { throw new TypeError('boom'); } }),
      makeCapability({ name: 'malformed', executor: async () => ({}) as never }),
    ];
    const { invoker, audit } = setup({ extra: failing });
    expect((await failure(invoker.execute('sandboxed', {}, operator))).code).toBe('sandbox_denied');
    const broken = await failure(invoker.execute('broken', {}, operator));
    expect(broken).toMatchObject({ code: 'tool_failed', message: expect.stringMatching(/^broken failed: disk on fire with \[REDACTED:[a-z_]+\]\.$/) });
    expect((await failure(invoker.execute('sync_throw', {}, operator))).code).toBe('tool_failed');
    expect((await failure(invoker.execute('malformed', {}, operator))).message).toContain('malformed result');
    expect(audit.records.map((r) => r.error_code)).toEqual(['sandbox_denied', 'tool_failed', 'tool_failed', 'tool_failed']);
  });

  it('the executor gets its own copy of the arguments', async () => {
    const mutator = makeCapability({ name: 'mutator', executor: async (args) => {
      (args.list as string[]).push('changed');
      return { text: 'ok' };
    } });
    const { invoker, audit } = setup({ extra: [mutator] });
    const args = { list: ['original'] };
    await invoker.execute('mutator', args, operator);
    expect(args.list).toEqual(['original']);
    expect(audit.records[0].args).toEqual({ list: ['original'] });
  });

  it('an executor that only serializes its arguments (passes_args_through) gets them without a copy', async () => {
    let received: unknown;
    const forwarder = makeCapability({ name: 'forwarder', passes_args_through: true, executor: async (args) => ((received = args), { text: JSON.stringify(args) }) });
    const copied = makeCapability({ name: 'copied', executor: async (args) => ((received = args), { text: '' }) });
    const { invoker, audit } = setup({ extra: [forwarder, copied] });
    const args = { query: 'x', nested: { n: 1 } };
    expect((await invoker.execute('forwarder', args, operator)).text).toBe('{"query":"x","nested":{"n":1}}');
    expect(received).toBe(args);
    expect(audit.records[0].args).toEqual(args);
    await invoker.execute('copied', args, operator);
    expect(received).not.toBe(args);
    expect(received).toEqual(args);
  });

  it('passes trust, origin, cwd and services to the executor', async () => {
    let ctx: unknown;
    const probe = makeCapability({ name: 'probe', executor: async (_a, c) => ((ctx = c), { text: '' }) });
    const { invoker } = setup({ extra: [probe] });
    await invoker.execute('probe', {}, { trust: 'operator', origin: 'cli', cwd: '/w', services: { s: 1 }, conversationId: 'c', turnId: 't' });
    expect(ctx).toMatchObject({ trust: 'operator', origin: 'cli', cwd: '/w', services: { s: 1 }, conversationId: 'c', turnId: 't' });
  });

  it('an audit sink failure does not turn a completed call into an error', async () => {
    const registry = createRegistry();
    registry.register(makeCapability({ name: 'ok' }));
    const errors: unknown[] = [];
    const invoker = createInvoker({ registry, gate: createPermissionGate({ rules: createMemoryRuleStore() }), audit: { write: () => { throw new Error('disk full'); } }, onAuditError: (e) => errors.push(e) });
    await expect(invoker.execute('ok', {}, operator)).resolves.toEqual({ text: 'ok ran' });
    expect(errors).toHaveLength(1);
  });
});

describe('arguments schemas', () => {
  it('a re-registered capability is validated against its new schema', async () => {
    const { invoker, registry } = setup();
    const v1 = makeCapability({ name: 'mcp_t', kind: 'mcp', policy_class: 'read_only', parameters: { type: 'object', required: ['a'] }, metadata: { category: 'mcp' } });
    registry.register(v1);
    await expect(invoker.execute('mcp_t', { a: 1 }, { ...operator, filter: { kind: 'all' } })).resolves.toBeDefined();
    registry.replace_kind('mcp', undefined, [{ ...v1, parameters: { type: 'object', required: ['b'] } }]);
    expect((await failure(invoker.execute('mcp_t', { a: 1 }, operator))).message).toContain('`b` is required');
  });

  it('accepts draft-07 and draft 2020-12 schemas', async () => {
    const d7 = makeCapability({ name: 'd7', parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } } });
    const d2020 = makeCapability({ name: 'd2020', parameters: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'string' }] } } } });
    const { invoker } = setup({ extra: [d7, d2020] });
    await expect(invoker.execute('d7', { t: ['x'] }, operator)).resolves.toBeDefined();
    expect((await failure(invoker.execute('d7', { t: [1] }, operator))).message).toContain('`t.0` must be string');
    await expect(invoker.execute('d2020', { t: ['x'] }, operator)).resolves.toBeDefined();
    expect((await failure(invoker.execute('d2020', { t: [1] }, operator))).message).toContain('`t.0` must be string');
  });

  it('an invalid schema is reported as invalid_capability, not a crash', async () => {
    const bad = makeCapability({ name: 'bad_schema', parameters: { type: 'object', properties: { a: { type: 'strnig' } } } });
    const { invoker } = setup({ extra: [bad] });
    expect((await failure(invoker.execute('bad_schema', {}, operator))).code).toBe('invalid_capability');
  });
});

describe('tool_call unwrapping', () => {
  it('unwrapToolCall returns the real call, and leaves malformed ones alone', () => {
    expect(unwrapToolCall('tool_call', { name: 'shell', arguments: { command: 'ls' } })).toEqual({ name: 'shell', args: { command: 'ls' }, unwrapped: true });
    expect(unwrapToolCall('tool_call', { name: 'shell', arguments: '{"command":"ls"}' })).toMatchObject({ name: 'shell', args: { command: 'ls' } });
    expect(unwrapToolCall('tool_call', { name: 'tool_call', arguments: { name: 'shell', arguments: {} } })).toMatchObject({ name: 'shell' });
    expect(unwrapToolCall('tool_call', { name: 'shell' })).toMatchObject({ name: 'tool_call', unwrapped: false });
    expect(unwrapToolCall('tool_call', { name: 'shell', arguments: 'not json' })).toMatchObject({ name: 'tool_call' });
    expect(unwrapToolCall('file_read', { name: 'shell', arguments: {} })).toMatchObject({ name: 'file_read' });
  });

  it('policy and audit see the real tool, not the bridge', async () => {
    const { invoker, audit, runs } = setup({ mode: 'auto' });
    const error = await failure(invoker.execute('tool_call', { name: 'shell', arguments: { command: 'id' } }, guest));
    expect(error.code).toBe('policy_denied');
    await invoker.execute('tool_call', { name: 'shell', arguments: { command: 'ls' } }, operator);
    expect(runs).toMatchObject([{ name: 'shell', args: { command: 'ls' } }]);
    expect(audit.records.map((r) => [r.capability, r.decision])).toEqual([['shell', 'deny'], ['shell', 'allow']]);
    await expect(invoker.execute('tool_call', { name: 'shell' }, operator)).resolves.toEqual({ text: 'malformed_call: pass {name, arguments}' });
  });
});
