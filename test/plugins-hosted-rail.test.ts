/**
 * The hosted rail's startup rule against the SDK HTTPS fake: unreachability alone is retried (3
 * attempts within the 60 s window, here with short delays) and a service that comes up in time is
 * connected; one that never does ends remote_unreachable with zero tools; a rejected token or a
 * policy refusal stops at the first attempt. Eden's signed manifest and fake tools are the real ones.
 */
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../main/core/capabilities/index.js';
import { decodeManifest } from '../main/plugins/manifest.js';
import { createHostedMcpRail, type HostedPluginSpec } from '../main/plugins/rails/mcp-hosted/hosted-rail.js';
import type { HostedChoice } from '../main/plugins/rails/mcp-hosted/workspace-choice.js';
import { readPluginsSettings } from '../main/plugins/settings.js';
import { installPlugin } from '../main/plugins/store/install.js';
import { createPluginStore } from '../main/plugins/store/store.js';
import { createPluginSupervisor } from '../main/plugins/supervisor.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { EDEN_READ_TOKEN, EDEN_WRITE_TOKEN, startEdenFake } from './fixtures/hosted-mcp/eden-fake.js';
import type { HostedFake } from './fixtures/hosted-mcp/server.js';
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

function railTo(overrides: Record<string, number>) {
  const registry = createRegistry();
  const rail = createHostedMcpRail({ registry, retryDelaysMs: [50, 50], net: { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: overrides } });
  return { registry, rail };
}

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
