/**
 * The hosted-MCP session against a local HTTPS server built with the SDK (test/fixtures/hosted-mcp):
 * all-or-none contract check (drift, missing tool, extras ignored before parsing), a rejected token,
 * text-only results, and the paced 16-deep queue with remote_busy beyond it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FermixError } from '../../../core/errors.js';
import { createTestPolicy } from '../../../net/test-policy.js';
import { HOSTED_GOOD_TOKEN, startHostedFake, type HostedFake, type HostedTool } from '../../../../test/fixtures/hosted-mcp/server.js';
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
