/**
 * Eden's per-turn budget through the real agent loop: the turn id reaches the hosted rail's executor
 * (run-turn → invoke boundary → ExecutionContext.turnId), so a model that asks for 21 Eden calls in
 * one turn gets 20 answers and `turn_budget_exhausted` for the 21st, which is never sent; the next turn
 * starts afresh. The rail is connected to the SDK HTTPS fake; the model is the scripted model server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAgentTestContext } from '../main/agent/test-context.js';
import { createHarness, providerConfig } from '../main/agent/test-harness.js';
import { createRegistry } from '../main/core/capabilities/index.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { decodeManifest } from '../main/plugins/manifest.js';
import { createHostedMcpRail, type HostedMcpRail } from '../main/plugins/rails/mcp-hosted/hosted-rail.js';
import { EDEN_READ_TOKEN, startEdenFake } from './fixtures/hosted-mcp/eden-fake.js';
import type { HostedFake } from './fixtures/hosted-mcp/server.js';
import { toolResultsOf } from './fixtures/model-server/index.js';
import { PLUGIN_SOURCES } from './fixtures/plugin-fakes/catalog-fixture.js';

const ctx = useAgentTestContext();
const file = join(PLUGIN_SOURCES, 'eden', 'plugin.json');
const manifest = decodeManifest(readFileSync(file, 'utf8'), file, 'eden');
const edenRegistry = createRegistry();
let fake: HostedFake;
let rail: HostedMcpRail;

beforeAll(async () => {
  fake = await startEdenFake();
  rail = createHostedMcpRail({ registry: edenRegistry, pacing: { minGapMs: 5, maxQueued: 16 }, net: { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'mcp.eden.so': fake.server.port } } });
  rail.apply({ eden: { manifest, token: EDEN_READ_TOKEN, choice: { workspace_id: 'ws_research', workspace_label: 'Research', profile: 'retrieval' } } });
  await rail.settled();
});
afterAll(async () => {
  await rail?.close();
  await fake?.close();
});

describe('hosted budgets in an agent turn', () => {
  it('the 21st Eden call in one turn is refused unsent with turn_budget_exhausted; the next turn calls again', async () => {
    expect(rail.state('eden')?.status).toBe('ready');
    const h = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }], '[fermix_core.tools.tool_search]\nenabled = false\n'),
      capabilities: () => edenRegistry.list(),
      rules: [{ permission: 'eden_*', action: 'allow', source: 'config' }],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    ctx.harness = h;
    const count = { value: 21 };
    let results: string[] = [];
    ctx.server.setScript((req) => {
      if (toolResultsOf(req).length === 0) return { toolCalls: Array.from({ length: count.value }, (_, i) => ({ name: 'eden_read_card', arguments: { cardId: `card${i}` } })) };
      results = toolResultsOf(req).map((result) => String(result.content));
      return { text: 'done' };
    });
    const before = fake.calls.length;
    expect((await h.agent.send({ message: 'read all my cards' }).done).status).toBe('completed');
    expect(results).toHaveLength(21);
    expect(results.slice(0, 20).every((text) => text.includes('"ok":true'))).toBe(true);
    expect(results[20]).toContain('turn_budget_exhausted');
    expect(fake.calls.slice(before).map((call) => call.args.cardId)).toEqual(Array.from({ length: 20 }, (_, i) => `card${i}`));

    count.value = 1;
    await h.agent.send({ message: 'one more' }).done;
    expect(results).toHaveLength(1);
    expect(results[0]).toContain('"ok":true');
  });
});
