/**
 * The hosted-MCP session against a local HTTPS server built with the SDK (test/fixtures/hosted-mcp):
 * all-or-none contract check (drift, missing tool, extras ignored before parsing), a rejected token,
 * text-only results, and the paced 16-deep queue with remote_busy beyond it; reference §2.5's limits
 * met on the wire: oversize headers and session ids, an SSE answer of too many events, a declared
 * schema too deep, a request too deep, 429 with and without Retry-After, invalid and too-deep results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FermixError } from '../../../core/errors.js';
import { createTestPolicy } from '../../../net/test-policy.js';
import { HOSTED_GOOD_TOKEN, rawResult, startHostedFake, type HostedFake, type HostedTool, type RawAnswer } from '../../../../test/fixtures/hosted-mcp/server.js';
import { waitFor } from '../../../../test/support/daemon-process.js';
import { descriptorSha256 } from './contract.js';
import { createHostedSession } from './connection.js';
import { createCallPacer } from './pacer.js';

const search: HostedTool = { name: 'eden_search_workspace_items', description: 'Search items.', inputSchema: { type: 'object', properties: { query: { type: 'string' }, mode: { type: 'string' } }, required: ['query'] }, annotations: { readOnlyHint: true, openWorldHint: true } };
const read: HostedTool = { name: 'eden_read_card', description: 'Read a card.', inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } };
// An undeclared tool whose schema would not even parse: it must be dropped by name first.
const hostile = { name: 'eden_extra', inputSchema: 'not a schema' } as unknown as HostedTool;

let fake: HostedFake;
beforeAll(async () => {
  fake = await startHostedFake('mcp.eden.so', [search, read, hostile]);
});
afterAll(async () => fake.close());

const declared = () => [search, read].map((tool) => ({ name: tool.name, descriptor_sha256: descriptorSha256(tool) }));
const session = (token = HOSTED_GOOD_TOKEN, pacing?: { minGapMs: number; maxQueued: number }) => createHostedSession({
  plugin: 'eden', url: 'https://mcp.eden.so/mcp', token, declared: declared(), pacing,
  net: { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'mcp.eden.so': fake.server.port } },
});
const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: FermixError) => error);

describe('hosted MCP session', () => {
  it('registers the declared tools when every hash matches, ignoring undeclared extras, and answers text only', async () => {
    const s = session();
    await s.connect();
    try {
      expect((await s.discover()).map((tool) => tool.name)).toEqual(['eden_search_workspace_items', 'eden_read_card']);
      const ok = await s.call('eden_search_workspace_items', { query: 'plans' });
      expect(JSON.parse(ok.text!)).toEqual({ ok: true, tool: 'eden_search_workspace_items', args: { query: 'plans' } });
      const before = fake.calls.length;
      const huge = await failure(s.call('eden_search_workspace_items', { query: 'x'.repeat(1024 * 1024 + 1) }));
      expect(huge?.code).toBe('request_too_large');
      expect(fake.calls.length).toBe(before);
      for (const mode of ['image', 'resource', 'base64']) {
        const refused = await failure(s.call('eden_search_workspace_items', { query: 'x', mode }));
        expect(refused?.code, mode).toBe('remote_result_refused');
      }
    } finally {
      await s.close();
    }
  });

  it('a changed schema or a missing tool is upstream_contract_mismatch with zero tools', async () => {
    const original = [...fake.tools];
    try {
      fake.tools = [{ ...search, inputSchema: { ...search.inputSchema, properties: { query: { type: 'string' }, workspaceId: { type: 'string' } } } }, read];
      let s = session();
      await s.connect();
      const changed = await failure(s.discover());
      expect([changed?.code, changed?.data]).toEqual(['upstream_contract_mismatch', { plugin: 'eden', tools: ['eden_search_workspace_items'] }]);
      await s.close();
      fake.tools = [search];
      s = session();
      await s.connect();
      const missing = await failure(s.discover());
      expect([missing?.code, missing?.data]).toEqual(['upstream_contract_mismatch', { plugin: 'eden', tools: ['eden_read_card'] }]);
      await s.close();
    } finally {
      fake.tools = original;
    }
  });

  it('a rejected token stops at connect as reauthorization_required', async () => {
    const s = session('eden_pat_wrongwrongwrongwrong');
    const refused = await failure(s.connect());
    expect(refused?.code).toBe('reauthorization_required');
    expect(refused?.hint).toContain('fermix plugins auth set eden');
  });

  it('paces call starts and refuses the call past a full queue with remote_busy', async () => {
    const s = session(HOSTED_GOOD_TOKEN, { minGapMs: 40, maxQueued: 16 });
    await s.connect();
    try {
      fake.calls.length = 0;
      const calls = Array.from({ length: 17 }, (_, i) => failure(s.call('eden_read_card', { id: String(i) })));
      const results = await Promise.all(calls);
      expect(results.filter((error) => error?.code === 'remote_busy')).toHaveLength(1);
      expect(results.filter((error) => error === null)).toHaveLength(16);
      expect(fake.calls.map((call) => call.args.id)).toEqual(Array.from({ length: 16 }, (_, i) => String(i)));
    } finally {
      await s.close();
    }
  });

  it('the pacer spaces starts by at least the gap, in arrival order', async () => {
    const pacer = createCallPacer('eden', { minGapMs: 30, maxQueued: 16 });
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 4 }, () => pacer.run(async () => void starts.push(Date.now()))));
    for (let i = 1; i < starts.length; i += 1) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(29);
  });
});

describe('hosted MCP limits on the wire', () => {
  /** Runs `body` with `intercept` answering the fake's requests raw, restored afterwards. */
  async function intercepted<T>(intercept: HostedFake['intercept'], body: () => Promise<T>): Promise<T> {
    fake.intercept = intercept;
    try {
      return await body();
    } finally {
      fake.intercept = null;
    }
  }
  const onInitialize = (answer: (message: { id?: unknown }) => RawAnswer) => (message: { method?: string; id?: unknown }) => (message.method === 'initialize' ? answer(message) : undefined);
  const initialized = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } };

  it('a header value over 8 KiB, a header block over 64 KiB or a session id over 256 bytes is remote_protocol_error at connect', async () => {
    const bigValue = await intercepted(onInitialize((m) => rawResult(m, initialized, { 'x-padding': 'v'.repeat(8 * 1024 + 1) })), () => failure(session().connect()));
    expect([bigValue?.code, bigValue?.message]).toEqual(['remote_protocol_error', expect.stringContaining('x-padding header is 8193 bytes')]);
    const block = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`x-pad-${i}`, 'v'.repeat(7000)]));
    const bigBlock = await intercepted(onInitialize((m) => rawResult(m, initialized, block)), () => failure(session().connect()));
    expect([bigBlock?.code, bigBlock?.message]).toEqual(['remote_protocol_error', expect.stringContaining('response headers are over 65536 bytes')]);
    const longId = await intercepted(onInitialize((m) => rawResult(m, initialized, { 'mcp-session-id': 's'.repeat(257) })), () => failure(session().connect()));
    expect(longId?.message).toContain('session id is 257 bytes');
    // At the limits it connects.
    const s = session();
    await intercepted(onInitialize((m) => rawResult(m, initialized, { 'x-padding': 'v'.repeat(8 * 1024), 'mcp-session-id': 's'.repeat(256) })), () => s.connect());
    await s.close();
  });

  it('a declared tool whose schema is over depth 32 is remote_protocol_error before hashing; an extra tool of any depth is ignored', async () => {
    const original = fake.tools;
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i += 1) deep = { type: 'object', properties: { a: deep } };
    try {
      fake.tools = [...original, { name: 'eden_extra_deep', inputSchema: deep }];
      let s = session();
      await s.connect();
      expect((await s.discover()).map((tool) => tool.name)).toEqual(['eden_search_workspace_items', 'eden_read_card']);
      await s.close();
      fake.tools = [search, { ...read, inputSchema: deep }];
      s = session();
      await s.connect();
      const refused = await failure(s.discover());
      expect([refused?.code, refused?.data]).toEqual(['remote_protocol_error', { plugin: 'eden', tool: 'eden_read_card' }]);
      await s.close();
    } finally {
      fake.tools = original;
    }
  });

  it('an answer of 257 SSE events, an invalid or a too-deep result is remote_protocol_error marked invalid; a too-deep request is never sent', async () => {
    const s = session(HOSTED_GOOD_TOKEN, { minGapMs: 1, maxQueued: 16 });
    await s.connect();
    try {
      const sse = (m: { id?: unknown }): RawAnswer => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `${'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n'.repeat(256)}event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { content: [] } })}\n\n` });
      const onCall = (answer: (m: { id?: unknown }) => RawAnswer) => (m: { method?: string; id?: unknown }) => (m.method === 'tools/call' ? answer(m) : undefined);
      const stream = await intercepted(onCall(sse), () => failure(s.call('eden_read_card', { id: '1' })));
      expect(stream?.message).toContain('257 events');
      const invalid = await intercepted(onCall((m) => rawResult(m, { content: 'not a list' })), () => failure(s.call('eden_read_card', { id: '1' })));
      expect([invalid?.code, invalid?.data?.invalid_result]).toEqual(['remote_protocol_error', true]);
      let deep: unknown = 'x';
      for (let i = 0; i < 70; i += 1) deep = { a: deep };
      const tooDeep = await intercepted(onCall((m) => rawResult(m, { content: [{ type: 'text', text: 'ok' }], structuredContent: deep })), () => failure(s.call('eden_read_card', { id: '1' })));
      expect([tooDeep?.code, tooDeep?.data?.invalid_result, tooDeep?.message]).toEqual(['remote_protocol_error', true, expect.stringContaining('levels deep')]);
      const before = fake.calls.length;
      const request = await failure(s.call('eden_read_card', { id: deep as string }));
      expect([request?.code, fake.calls.length]).toEqual(['request_too_large', before]);
    } finally {
      await s.close();
    }
  });

  it('a GET event stream past 256 events is ended by the rail', async () => {
    const s = session();
    const before = new Set(fake.streams);
    await s.connect();
    try {
      await waitFor(() => [...fake.streams].some((stream) => !before.has(stream)), 10_000, 'the GET event stream');
      const opened = [...fake.streams].find((stream) => !before.has(stream))!;
      opened.write(': keep-alive\n\n'.repeat(3) + 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n'.repeat(257));
      await waitFor(() => !fake.streams.has(opened), 10_000, 'the flooded stream to be closed');
    } finally {
      await s.close();
    }
  });

  it('429 with Retry-After: remote_busy naming the wait, then calls are refused unsent until it passes; without the header the wait is 60 s', async () => {
    let busy = 0;
    const onCall = (headers: Record<string, string>) => (m: { method?: string; id?: unknown }) => (m.method === 'tools/call' ? (busy += 1, { status: 429, headers: { 'content-type': 'application/json', ...headers }, body: '{}' }) : undefined);
    let s = session(HOSTED_GOOD_TOKEN, { minGapMs: 1, maxQueued: 16 });
    await s.connect();
    try {
      const first = await intercepted(onCall({ 'retry-after': '120' }), () => failure(s.call('eden_read_card', { id: '1' })));
      expect([first?.code, first?.hint, first?.data?.retry_after_ms, busy]).toEqual(['remote_busy', 'Wait 120 s (the service\'s Retry-After), then try again.', 120_000, 1]);
      const held = await failure(s.call('eden_read_card', { id: '2' }));
      expect([held?.code, held?.hint, busy]).toEqual(['remote_busy', expect.stringMatching(/^Wait 1[12]\d s/), 1]);
    } finally {
      await s.close();
    }
    s = session(HOSTED_GOOD_TOKEN, { minGapMs: 1, maxQueued: 16 });
    await s.connect();
    try {
      const absent = await intercepted(onCall({}), () => failure(s.call('eden_read_card', { id: '1' })));
      expect([absent?.code, absent?.data?.retry_after_ms]).toEqual(['remote_busy', 60_000]);
    } finally {
      await s.close();
    }
  });
});
