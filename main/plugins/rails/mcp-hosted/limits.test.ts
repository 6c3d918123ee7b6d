/**
 * The hosted rail's hard limits (reference §2.5) as pure checks: each at its edge (the value at the
 * limit passes, one past it is refused), Retry-After parsing with its cap and default, the
 * list_changed rediscovery gate (3 per session, 5 s apart), and the per-turn budgets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../../../core/capabilities/index.js';
import type { FermixError } from '../../../core/errors.js';
import { decodeManifest } from '../../manifest.js';
import { checkRequestBody, checkResponseHeaders, checkSseBody, checkToolSchemas, createRediscoveryGate, HOSTED_LIMITS, jsonShape, retryAfterMs } from './limits.js';
import { createSseMeter } from './hosted-stream.js';
import { createTurnBudget } from './turn-budget.js';

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 1; i < levels; i += 1) value = { a: value };
  return value;
};
const thrown = (run: () => unknown): FermixError | null => {
  try {
    run();
    return null;
  } catch (error) {
    return error as FermixError;
  }
};

describe('hosted limits', () => {
  it('measures depth and nodes without recursion, even for a hostile depth', () => {
    expect(jsonShape({ a: [1, { b: 2 }] })).toEqual({ depth: 4, nodes: 5 });
    expect(jsonShape(nested(100_000)).depth).toBe(100_000);
  });

  it('a declared schema: depth 32, 20,000 nodes and 256 KiB pass; one more is a protocol error', () => {
    expect(thrown(() => checkToolSchemas('eden', { name: 't', inputSchema: nested(32) }))).toBeNull();
    expect(thrown(() => checkToolSchemas('eden', { name: 't', inputSchema: nested(33) }))).toMatchObject({ code: 'remote_protocol_error', message: expect.stringContaining('33 levels deep') });
    const wide = (count: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, 0])) });
    expect(thrown(() => checkToolSchemas('eden', { name: 't', inputSchema: wide(19_997) }))).toBeNull(); // 1 + 1 + 1 + 19,997 nodes
    expect(thrown(() => checkToolSchemas('eden', { name: 't', outputSchema: wide(19_998) }))?.message).toContain('more than 20000 nodes');
    const big = { type: 'string', description: 'x'.repeat(HOSTED_LIMITS.schemaBytes) };
    expect(thrown(() => checkToolSchemas('eden', { name: 't', inputSchema: big }))?.message).toContain('bytes (at most 262144)');
  });

  it('response headers: a value over 8 KiB, a block over 64 KiB, a session id over 256 bytes', () => {
    expect(thrown(() => checkResponseHeaders('eden', { 'x-a': 'v'.repeat(8192), 'mcp-session-id': 's'.repeat(256) }))).toBeNull();
    expect(thrown(() => checkResponseHeaders('eden', { 'x-a': 'v'.repeat(8193) }))?.message).toContain('x-a header is 8193 bytes');
    expect(thrown(() => checkResponseHeaders('eden', { 'mcp-session-id': 's'.repeat(257) }))?.message).toContain('session id is 257 bytes');
    const many = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`x-${i}`, 'v'.repeat(8000)]));
    expect(thrown(() => checkResponseHeaders('eden', many))).toMatchObject({ code: 'remote_protocol_error', message: expect.stringContaining('response headers are') });
  });

  it('an SSE body: 256 events pass, 257 do not; one event over 2 MiB is refused', () => {
    const events = (count: number) => Buffer.from('event: message\ndata: {}\n\n'.repeat(count));
    expect(thrown(() => checkSseBody('eden', events(256)))).toBeNull();
    expect(thrown(() => checkSseBody('eden', events(257)))?.message).toContain('257 events');
    expect(thrown(() => checkSseBody('eden', Buffer.from(`data: ${'x'.repeat(HOSTED_LIMITS.sseEventBytes)}\n\n`)))?.message).toContain('one event is');
  });

  it('the streaming SSE meter: 256 events (CRLF or LF, split across chunks) pass, the 257th ends the stream', () => {
    const meter = createSseMeter();
    const event = Buffer.from('data: {}\r\n\r\n');
    for (let i = 0; i < 256; i += 1) {
      expect(meter(event.subarray(0, 5))).toBeNull();
      expect(meter(event.subarray(5))).toBeNull();
    }
    expect(meter(Buffer.from(':\n\n'))).toContain('more than 256 events');
    expect(createSseMeter()(Buffer.alloc(HOSTED_LIMITS.sseEventBytes + 1, 0x61))).toContain('one event is over');
  });

  it('a request: depth 64 is sent, 65 is refused before sending', () => {
    expect(thrown(() => checkRequestBody('mcp.eden.so', Buffer.from(JSON.stringify(nested(64)))))).toBeNull();
    expect(thrown(() => checkRequestBody('mcp.eden.so', Buffer.from(JSON.stringify(nested(65)))))).toMatchObject({ code: 'request_too_large', message: expect.stringContaining('65 levels deep') });
  });

  it('Retry-After: seconds or a date, at most 300,000 ms, 60,000 ms when absent or unreadable', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect([retryAfterMs('7'), retryAfterMs('100000'), retryAfterMs(undefined), retryAfterMs('soon'), retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)]).toEqual([7_000, 300_000, 60_000, 60_000, 30_000]);
  });

  it('rediscovery: the first at once, the next spaced 5 s from the last, none after 3', () => {
    let clock = 1_000;
    const gate = createRediscoveryGate(undefined, () => clock);
    expect(gate.request()).toBe(0);
    clock += 1_000;
    expect(gate.request()).toBe(4_000);
    expect(gate.request()).toBe(9_000);
    expect([gate.request(), gate.used()]).toEqual([null, 3]);
  });
});

describe('hosted turn budgets', () => {
  const file = join(process.cwd(), 'resources', 'plugins', 'eden', 'plugin.json');
  const eden = decodeManifest(readFileSync(file, 'utf8'), file, 'eden');
  const context = (turnId?: string): ExecutionContext => ({ trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: {}, ...(turnId ? { turnId } : {}) });
  const ok = async () => ({ text: 'ok' });

  it('Eden: the 21st call in one turn is refused, the next turn starts afresh, and calls outside a turn are not counted', async () => {
    expect(eden.budgets).toEqual({ agent_turn_calls: 20, agent_turn_paginated_calls: 5 });
    const budget = createTurnBudget(eden);
    for (let i = 0; i < 20; i += 1) await budget.spend('eden_read_card', {}, context('t1'), ok);
    await expect(budget.spend('eden_read_card', {}, context('t1'), ok)).rejects.toMatchObject({ code: 'turn_budget_exhausted', hint: expect.stringContaining('another message') });
    await expect(budget.spend('eden_read_card', {}, context('t2'), ok)).resolves.toEqual({ text: 'ok' });
    for (let i = 0; i < 30; i += 1) await budget.spend('eden_read_card', {}, context(), ok);
  });

  it('Eden: a 6th call with a page cursor in one turn is refused, a call without one still goes', async () => {
    const budget = createTurnBudget(eden);
    for (let i = 0; i < 5; i += 1) await budget.spend('eden_list_workspace_items', { cursor: `c${i}` }, context('t1'), ok);
    await expect(budget.spend('eden_list_workspace_items', { cursor: 'c5' }, context('t1'), ok)).rejects.toMatchObject({ code: 'turn_budget_exhausted', data: { limit: 5 } });
    await expect(budget.spend('eden_list_workspace_items', {}, context('t1'), ok)).resolves.toEqual({ text: 'ok' });
  });

  it('the manifest refuses paginated calls above calls, more than 100, and budgets on a plugin that is not hosted', () => {
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    const decode = (budgets: unknown) => thrown(() => decodeManifest(JSON.stringify({ ...raw, budgets }), file, 'eden'));
    expect(decode({ agent_turn_calls: 10, agent_turn_paginated_calls: 11 })?.message).toContain('agent_turn_paginated_calls');
    expect(decode({ agent_turn_calls: 101, agent_turn_paginated_calls: 1 })).not.toBeNull();
    expect(decode({ agent_turn_calls: 100, agent_turn_paginated_calls: 100 })).toBeNull();
  });
});
