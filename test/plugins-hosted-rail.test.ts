/**
 * The hosted rail's startup rule against the SDK HTTPS fake: unreachability alone is retried (3
 * attempts within the 60 s window, here with short delays) and a service that comes up in time is
 * connected; one that never does ends remote_unreachable with zero tools; a rejected token or a
 * policy refusal stops at the first attempt. Eden's signed manifest and fake tools are the real ones.
 * Live (reference §2.5): tools/list_changed re-runs the contract check (drift → zero tools), at most
 * 3 times a session; calls made during a re-initialization are held and drained onto the new session;
 * 3 invalid results in a row withdraw the tools (remote_protocol_error); Eden's 20 calls per agent turn.
 */
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../main/core/capabilities/index.js';
import { decodeManifest } from '../main/plugins/manifest.js';
import type { HostedPluginSpec } from '../main/plugins/rails/mcp-hosted/hosted-rail.js';
import type { HostedChoice } from '../main/plugins/rails/mcp-hosted/workspace-choice.js';
import { readPluginsSettings } from '../main/plugins/settings.js';
import { installPlugin } from '../main/plugins/store/install.js';
import { createPluginStore } from '../main/plugins/store/store.js';
import { createPluginSupervisor } from '../main/plugins/supervisor.js';
import { EDEN_READ_TOKEN, EDEN_WRITE_TOKEN, startEdenFake } from './fixtures/hosted-mcp/eden-fake.js';
import { hostedRailTo, type QuickRailOptions } from './fixtures/hosted-mcp/rail-harness.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { rawResult, type HostedFake } from './fixtures/hosted-mcp/server.js';
import { makeTestCatalog, PLUGIN_SOURCES } from './fixtures/plugin-fakes/catalog-fixture.js';
import { waitFor } from './support/daemon-process.js';

const file = join(PLUGIN_SOURCES, 'eden', 'plugin.json');
const manifest = decodeManifest(readFileSync(file, 'utf8'), file, 'eden');
const spec = (token = EDEN_READ_TOKEN): HostedPluginSpec => ({ manifest, token, choice: { workspace_id: 'ws_research', workspace_label: 'Research', profile: 'retrieval' } });
let fake: HostedFake;
let deadPort: number;
let dir: string;

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  fake = await startEdenFake();
  deadPort = await closedPort();
  dir = mkdtempSync(join(tmpdir(), 'fermix-hosted-rail-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

const railTo = (overrides: Record<string, number>, quick: QuickRailOptions = {}) => hostedRailTo(fake, createTestPolicy(), overrides, quick);

describe('hosted rail startup', () => {
  it('retries an unreachable service and connects when it comes up within the attempts', async () => {
    const overrides = { 'mcp.eden.so': deadPort };
    const { registry, rail } = railTo(overrides);
    try {
      rail.apply({ eden: spec() });
      await waitFor(() => (rail.state('eden')?.attempts ?? 0) >= 1 && rail.state('eden')?.last_code === 'remote_unreachable', 10_000, 'a failed first attempt');
      expect(rail.state('eden')?.status).toBe('connecting');
      overrides['mcp.eden.so'] = fake.server.port;
      await rail.settled();
      expect(rail.state('eden')).toMatchObject({ status: 'ready', last_error: null });
      expect(registry.list().filter((cap) => cap.metadata.plugin === 'eden')).toHaveLength(12);
    } finally {
      await rail.close();
    }
  });

  it('gives up after 3 unreachable attempts with zero tools, and stops at once on a rejected token or a policy refusal', async () => {
    const { registry, rail } = railTo({ 'mcp.eden.so': deadPort });
    try {
      rail.apply({ eden: spec() });
      await rail.settled();
      expect(rail.state('eden')).toMatchObject({ status: 'remote_unreachable', attempts: 3, tools: [] });
      expect(registry.list()).toEqual([]);
    } finally {
      await rail.close();
    }
    const second = railTo({ 'mcp.eden.so': fake.server.port });
    try {
      second.rail.apply({ eden: spec('eden_pat_revokedrevokedrevoked') });
      await second.rail.settled();
      expect(second.rail.state('eden')).toMatchObject({ status: 'reauthorization_required', attempts: 1, tools: [] });
    } finally {
      await second.rail.close();
    }
    // A policy refusal (HTTP 403) stops at once too.
    const refused = 'eden_pat_policyrefusedpolicyrefused';
    fake.forbidden.add(refused);
    const third = railTo({ 'mcp.eden.so': fake.server.port });
    try {
      third.rail.apply({ eden: spec(refused) });
      await third.rail.settled();
      expect(third.rail.state('eden')).toMatchObject({ status: 'remote_security_blocked', attempts: 1, tools: [] });
    } finally {
      fake.forbidden.delete(refused);
      await third.rail.close();
    }
  });

  it('the supervisor: needs_workspace until chosen, then the live state in status and in the prompt when the contract drifted', async () => {
    const fixture = await makeTestCatalog(join(dir, 'cat'), [join(PLUGIN_SOURCES, 'eden')]);
    const store = createPluginStore(join(dir, 'plugins'));
    await installPlugin({ store, catalog: fixture.catalog(), coreVersion: '0.1.0' }, 'eden');
    const { registry, rail } = railTo({ 'mcp.eden.so': fake.server.port });
    let choice: HostedChoice | null = null;
    const supervisor = createPluginSupervisor({
      store, catalog: fixture.catalog(), registry, coreVersion: '0.1.0', net: {}, hostedMcp: rail, hostedChoice: () => choice,
      secrets: { get: () => EDEN_READ_TOKEN, has: () => true },
      settings: () => readPluginsSettings({ enabled: ['eden'], eden: { secret_ref: 'keychain:plugin_eden_EDEN_PERSONAL_ACCESS_TOKEN' } }),
    });
    const original = fake.tools;
    try {
      expect(supervisor.reload()[0]).toMatchObject({ name: 'eden', status: 'needs_workspace', tools: [], remote: true });
      expect(rail.state('eden')).toBeUndefined();
      fake.tools = original.filter((tool) => tool.name !== 'eden_read_board');
      choice = { workspace_id: 'ws_research', workspace_label: 'Research', profile: 'retrieval' };
      expect(supervisor.reload()[0]).toMatchObject({ status: 'ready', live: 'connecting' });
      await rail.settled();
      expect(supervisor.states()[0]).toMatchObject({ status: 'ready', live: 'upstream_contract_mismatch', tools: [], detail: expect.stringContaining('missing: eden_read_board') });
      expect(supervisor.promptStatus()).toEqual([{ name: 'eden', status: 'upstream_contract_mismatch' }]);
      expect(registry.list()).toEqual([]);
    } finally {
      fake.tools = original;
      await rail.close();
    }
  });

  it('a session the service forgot (404) is re-initialized: a replay-safe call is repeated once, a write is not', async () => {
    const { registry, rail } = railTo({ 'mcp.eden.so': fake.server.port });
    const run = (name: string, args: Record<string, unknown>) => registry.find(name)!.executor!(args, { trust: 'operator', origin: 'cli', signal: new AbortController().signal, services: {} }).catch((error) => error);
    try {
      rail.apply({ eden: { manifest, token: EDEN_WRITE_TOKEN, choice: { workspace_id: 'ws_home', workspace_label: 'Home', profile: 'capture' } } });
      await rail.settled();
      expect(rail.state('eden')?.status).toBe('ready');
      const initializes = fake.initializes;
      fake.expireCalls = 1;
      expect((await run('eden_read_card', { cardId: 'c9' })).data).toMatchObject({ ok: true, args: { cardId: 'c9', workspaceId: 'ws_home' } });
      expect(fake.initializes).toBe(initializes + 1);
      const calls = fake.calls.length;
      fake.expireCalls = 1;
      const write = await run('eden_create_note', { title: 'Once' });
      expect([write.code, fake.calls.length]).toEqual(['remote_session_expired', calls]);
      // The new session is there for the next call, and the plugin stayed ready.
      expect((await run('eden_create_note', { title: 'Once' })).data).toMatchObject({ ok: true });
      expect(rail.state('eden')?.status).toBe('ready');
    } finally {
      fake.expireCalls = 0;
      await rail.close();
    }
  });
});

describe('hosted rail live', () => {
  const quick = { pacing: { minGapMs: 5, maxQueued: 16 }, rediscovery: { max: 3, spacingMs: 30 } };
  const context = (turnId?: string): ExecutionContext => ({ trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: {}, ...(turnId ? { turnId } : {}) });
  async function readyRail() {
    const { registry, rail } = railTo({ 'mcp.eden.so': fake.server.port }, quick);
    rail.apply({ eden: spec() });
    await rail.settled();
    expect(rail.state('eden')?.status).toBe('ready');
    const run = (name: string, args: Record<string, unknown>, turnId?: string) => registry.find(name)!.executor!(args, context(turnId)).catch((error) => error);
    return { registry, rail, run };
  }

  it('tools/list_changed rediscovers (3 times a session at most); a drifted schema then withdraws every tool as upstream_contract_mismatch', async () => {
    const { registry, rail, run } = await readyRail();
    const original = fake.tools;
    try {
      for (let round = 1; round <= 4; round += 1) {
        const lists = fake.lists;
        fake.notifyToolsChanged = 1;
        expect((await run('eden_read_card', { cardId: `c${round}` })).data).toMatchObject({ ok: true });
        if (round <= 3) {
          await waitFor(() => rail.state('eden')?.rediscoveries === round, 10_000, `rediscovery ${round}`);
          expect(fake.lists).toBe(lists + 1);
        } else {
          // The cap is spent: the 4th notification starts nothing (the next connect re-checks instead).
          expect([rail.state('eden')?.rediscoveries, fake.lists]).toEqual([3, lists]);
        }
      }
      expect(rail.state('eden')?.status).toBe('ready');
    } finally {
      await rail.close();
    }
    const second = await readyRail();
    try {
      fake.tools = original.map((tool) => (tool.name === 'eden_read_card' ? { ...tool, inputSchema: { ...tool.inputSchema, properties: { cardId: { type: 'string' } } } } : tool));
      fake.notifyToolsChanged = 1;
      expect((await second.run('eden_read_card', { cardId: 'c9' })).data).toMatchObject({ ok: true });
      await waitFor(() => second.rail.state('eden')?.status !== 'ready', 10_000, 'the drift to be seen');
      expect(second.rail.state('eden')).toMatchObject({ status: 'upstream_contract_mismatch', tools: [], last_error: expect.stringContaining('changed: eden_read_card') });
      expect(second.registry.list()).toEqual([]);
      expect(registry.list()).toEqual([]);
    } finally {
      fake.tools = original;
      fake.notifyToolsChanged = 0;
      await second.rail.close();
    }
  });

  it('list_changed on the standalone GET event stream rediscovers too, and closing the rail closes the stream', async () => {
    // Streams of earlier tests' rails may still be closing: follow this rail's own stream, not a count.
    const before = new Set(fake.streams);
    const { rail } = await readyRail();
    let opened: unknown;
    try {
      await waitFor(() => (opened = [...fake.streams].find((stream) => !before.has(stream))) !== undefined, 10_000, 'the GET event stream to open');
      const lists = fake.lists;
      fake.push(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' })}\n\n`);
      await waitFor(() => rail.state('eden')?.rediscoveries === 1, 10_000, 'a rediscovery');
      expect([fake.lists, rail.state('eden')?.status]).toEqual([lists + 1, 'ready']);
    } finally {
      await rail.close();
    }
    await waitFor(() => ![...fake.streams].includes(opened as never), 10_000, 'the stream to close with the session');
  });

  it('a call made while an expired session is re-initialized is held, then drained onto the new session', async () => {
    const { rail, run } = await readyRail();
    let open!: () => void;
    try {
      fake.initializeGate = new Promise<void>((resolve) => (open = resolve));
      fake.expireCalls = 1;
      const first = run('eden_read_card', { cardId: 'expired' });
      await waitFor(() => fake.initializesWaiting === 1, 10_000, 'the re-initialize to be held');
      const calls = fake.calls.length;
      const second = run('eden_read_card', { cardId: 'held' });
      // Held: nothing of the second call reaches the service while the session is re-opened.
      await waitFor(() => rail.state('eden')?.held === 1, 10_000, 'the second call to be held');
      expect(fake.calls.length).toBe(calls);
      fake.initializeGate = null;
      open();
      expect([(await first).data, (await second).data]).toMatchObject([{ ok: true, args: { cardId: 'expired' } }, { ok: true, args: { cardId: 'held' } }]);
      expect(fake.calls.slice(calls).map((call) => call.args.cardId)).toEqual(['expired', 'held']);
    } finally {
      fake.initializeGate = null;
      open?.();
      fake.expireCalls = 0;
      await rail.close();
    }
  });

  it('3 invalid results in a row are a broken peer: remote_protocol_error and zero tools; a valid one in between resets the count', async () => {
    const { registry, rail, run } = await readyRail();
    let invalid = true;
    fake.intercept = (message) => (message.method === 'tools/call' && invalid ? rawResult(message, { content: 'not a list' }) : undefined);
    try {
      for (const expected of ['invalid', 'invalid', 'valid', 'invalid', 'invalid']) {
        invalid = expected === 'invalid';
        const answer = await run('eden_read_card', { cardId: 'x' });
        expect(answer.code ?? 'valid', expected).toBe(expected === 'invalid' ? 'remote_protocol_error' : 'valid');
      }
      expect(rail.state('eden')?.status).toBe('ready');
      invalid = true;
      await run('eden_read_card', { cardId: 'x' });
      expect(rail.state('eden')).toMatchObject({ status: 'remote_protocol_error', tools: [], last_error: expect.stringContaining('3 invalid results in a row') });
      expect(registry.list()).toEqual([]);
    } finally {
      fake.intercept = null;
      await rail.close();
    }
  });

  it("Eden's budget: the 21st call in one agent turn is refused unsent with turn_budget_exhausted; another turn still calls", async () => {
    const { rail, run } = await readyRail();
    try {
      for (let i = 0; i < 20; i += 1) expect((await run('eden_read_card', { cardId: `b${i}` }, 'turn-1')).data).toMatchObject({ ok: true });
      const calls = fake.calls.length;
      const refused = await run('eden_read_card', { cardId: 'b20' }, 'turn-1');
      expect([refused.code, refused.hint, fake.calls.length]).toEqual(['turn_budget_exhausted', expect.stringContaining('another message'), calls]);
      expect((await run('eden_read_card', { cardId: 'next' }, 'turn-2')).data).toMatchObject({ ok: true });
    } finally {
      await rail.close();
    }
  });
});
