import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '../main/core/capabilities/index.js';
import { FermixError } from '../main/core/errors.js';
import { buildRuntimePrompt } from '../main/agent/runtime-prompt.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { createPluginSupervisor } from '../main/plugins/supervisor.js';
import { readPluginsSettings, secretItemName, type PluginsSettings } from '../main/plugins/settings.js';
import { installPlugin } from '../main/plugins/store/install.js';
import { createPluginStore } from '../main/plugins/store/store.js';
import { makeTestCatalog, pluginVariant, PLUGIN_SOURCES } from './fixtures/plugin-fakes/catalog-fixture.js';
import { SLACK_GOOD_TOKEN, startSlackFake, type SlackFake } from './fixtures/plugin-fakes/slack-fake.js';

let dir: string;
let fake: SlackFake;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fermix-ready-'));
  fake = await startSlackFake();
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

// A Map standing in for the OS keychain behind the Keychain interface (get/has), so this test needs no
// Secret Service; the keychain itself is tested in test/secrets-keychain.test.ts.
const secrets = new Map<string, string>();
const secretStore = { get: (name: string) => secrets.get(name) ?? null, has: (name: string) => secrets.has(name) };

function context() {
  return { trust: 'operator' as const, origin: 'cli' as const, signal: new AbortController().signal, services: {} };
}

describe('readiness ladder, registration and the runtime prompt', () => {
  it('walks slack from not_installed to ready, registers <plugin>_<tool> atomically, and refuses disabled tools with an enable hint', async () => {
    const fixture = await makeTestCatalog(join(dir, 'a'), [join(PLUGIN_SOURCES, 'slack'), join(PLUGIN_SOURCES, 'github')]);
    const store = createPluginStore(join(dir, 'a', 'plugins'));
    const registry = createRegistry();
    let raw: Record<string, unknown> = { enabled: ['slack', 'github'] };
    const supervisor = createPluginSupervisor({
      store, catalog: fixture.catalog(), registry, coreVersion: '0.1.0', secrets: secretStore,
      settings: (): PluginsSettings => readPluginsSettings(raw),
      net: { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'slack.com': fake.server.port } },
    });
    const status = () => Object.fromEntries(supervisor.reload().map((s) => [s.name, s.status]));
    expect(status()).toEqual({ github: 'not_installed', slack: 'not_installed' });
    await installPlugin({ store, catalog: fixture.catalog(), coreVersion: '0.1.0' }, 'slack');
    await installPlugin({ store, catalog: fixture.catalog(), coreVersion: '0.1.0' }, 'github');
    expect(status()).toEqual({ github: 'needs_client_config', slack: 'needs_secret' });
    expect(registry.list().filter((c) => c.metadata.plugin_owned)).toEqual([]);

    secrets.set(secretItemName('slack', 'SLACK_BOT_TOKEN'), SLACK_GOOD_TOKEN);
    raw = { ...raw, slack: { secret_ref: `keychain:${secretItemName('slack', 'SLACK_BOT_TOKEN')}` } };
    expect(status().slack).toBe('ready');
    const tools = registry.list().filter((c) => c.metadata.plugin === 'slack');
    expect(tools.map((c) => c.name)).toEqual(['slack_channel_history', 'slack_channel_replies', 'slack_list_channels', 'slack_list_members', 'slack_team_info']);
    expect(tools.every((c) => c.kind === 'builtin' && c.metadata.plugin_owned === true && c.metadata.category === 'plugin' && !c.hidden_from_agent)).toBe(true);
    const team = await registry.find('slack_team_info')!.executor!({}, context());
    expect(team.data).toMatchObject({ name: 'Acme' });

    const prompt = buildRuntimePrompt({ now: new Date('2026-01-05T00:00:00Z'), presentation: { advertised: [], deferred: [], active: false }, visible: registry.list(), plugins: supervisor.promptStatus(), skills: [] });
    expect(prompt).toContain('- slack: slack_channel_history, slack_channel_replies, slack_list_channels, slack_list_members, slack_team_info');
    expect(prompt).toContain('- github status=needs_client_config');
    expect(prompt).toContain('use that plugin\'s tools rather than browser, web_fetch or shell');

    raw = { ...raw, enabled: ['github'] };
    expect(status().slack).toBe('disabled');
    const stub = registry.find('slack_team_info')!;
    expect(stub.hidden_from_agent).toBe(true);
    const refused = await stub.executor!({}, context()).then(() => null, (error: FermixError) => error);
    expect([refused?.code, refused?.hint]).toEqual(['plugin_disabled', 'Enable it with `fermix plugins enable slack` (or on the setup Plugins page).']);
    expect(supervisor.promptStatus().map((s) => s.name)).toEqual(['github']);

    // Provenance failure: an edited installed file is an `error` state with no tools.
    raw = { ...raw, enabled: ['slack'] };
    writeFileSync(join(store.installedDir, 'slack', '1.0.0', 'CHANGELOG.md'), 'edited');
    const states = supervisor.reload();
    expect(states.find((s) => s.name === 'slack')).toMatchObject({ status: 'error' });
    expect(states.find((s) => s.name === 'slack')!.detail).toContain('plugin_tampered');
    expect(registry.find('slack_team_info')).toBeUndefined();
  });

  it('an installed version that needs a newer core is incompatible until `plugins upgrade` installs a compatible one', async () => {
    const needsNewer = pluginVariant(dir, 'slack', (m) => { m.version = '2.0.0'; m.min_core_version = '0.3.0'; });
    const fixed = pluginVariant(dir, 'slack', (m) => { m.version = '2.1.0'; m.min_core_version = '0.1.0'; });
    const fixture = await makeTestCatalog(join(dir, 'b'), [needsNewer, fixed]);
    const store = createPluginStore(join(dir, 'b', 'plugins'));
    // Installed by a newer Fermix (0.3.0); this one is 0.1.0, as after a downgrade or restore.
    await installPlugin({ store, catalog: fixture.catalog(), coreVersion: '0.3.0' }, 'slack', { version: '2.0.0' });
    secrets.set('plugin_slack_SLACK_BOT_TOKEN', SLACK_GOOD_TOKEN);
    const registry = createRegistry();
    const supervisor = createPluginSupervisor({
      store, catalog: fixture.catalog(), registry, coreVersion: '0.1.0', secrets: secretStore, net: {},
      settings: () => readPluginsSettings({ enabled: ['slack'], slack: { secret_ref: 'keychain:plugin_slack_SLACK_BOT_TOKEN' } }),
    });
    expect(supervisor.reload()[0]).toMatchObject({ status: 'incompatible', version: '2.0.0', tools: [] });
    expect(registry.list()).toEqual([]);
    expect(buildRuntimePrompt({ now: new Date(), presentation: { advertised: [], deferred: [], active: false }, visible: [], plugins: supervisor.promptStatus(), skills: [] })).toContain('- slack status=incompatible — not connected; fix: `fermix plugins upgrade slack`');
    await installPlugin({ store, catalog: fixture.catalog(), coreVersion: '0.1.0' }, 'slack'); // what `fermix plugins upgrade slack` does
    expect(supervisor.reload()[0]).toMatchObject({ status: 'ready', version: '2.1.0' });
    expect(registry.list()).toHaveLength(5);
  });
});
