import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homePaths, ensureHome, type HomePaths } from '../main/config/home.js';
import { pluginsVerb } from '../main/cli/verbs/plugins.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { SLACK_GOOD_TOKEN, startSlackFake, type SlackFake } from './fixtures/plugin-fakes/slack-fake.js';
import { ROOT } from './support/daemon-process.js';

// In-process `fermix plugins` with no daemon running (the local path), against the app's real built
// catalog (resources/catalog, dev key trusted by setting), the file secret store, and the Slack fake:
// the test composition root is the only place the loopback policy is injected.
let fake: SlackFake;
let paths: HomePaths;
let secretInput = '';
const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await pluginsVerb({ out: (t) => out.push(t), err: (t) => err.push(t) }, paths, argv, {
    readSecret: async () => secretInput,
    net: { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'slack.com': fake.server.port } },
  });
  const stdout = out.join('\n');
  return { code, stdout, stderr: err.join('\n'), json: stdout.startsWith('{') ? JSON.parse(stdout) : null };
};

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'resources', 'catalog', 'index.json'))) throw new Error('resources/catalog/index.json is missing: run `node scripts/build-catalog.mjs` (npm ci does).');
  fake = await startSlackFake();
  paths = homePaths(mkdtempSync(join(tmpdir(), 'fermix-plugins-cli-')));
  ensureHome(paths);
  writeFileSync(paths.config, '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\n');
});
afterAll(async () => {
  await fake.close();
  rmSync(paths.home, { recursive: true, force: true });
});

describe('fermix plugins (no daemon running)', () => {
  it('refuses a key in argv with a usage error about shell history, before anything else', async () => {
    const result = await run('auth', 'set', 'slack', 'xoxb-in-argv');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('may now be in your shell history, so rotate that key');
    expect(result.stderr).not.toContain('xoxb-in-argv');
    expect((await run('pin', 'slack')).code).toBe(2);
    expect((await run('frobnicate')).code).toBe(2);
  });

  it('lists, enables (installing from the catalog), sets the key after the health check, and reaches ready', async () => {
    const list = await run('list', '--json');
    expect(list.code).toBe(0);
    expect(list.json.schema_version).toBe(1);
    const slack = list.json.result.plugins.find((p: { name: string }) => p.name === 'slack');
    expect(slack).toEqual({ name: 'slack', status: 'disabled', enabled: false, version: null, rail: 'http', auth_type: 'api_key', account: null, tools: [], detail: null, source: 'catalog', reconnect_needed: false });
    expect(list.stderr).toContain('daemon not running');

    const enabled = await run('enable', 'slack', '--json');
    expect(enabled.json).toEqual({ schema_version: 1, ok: true, result: { name: 'slack', enabled: true, installed: true, status: 'needs_secret' } });
    expect(enabled.stderr).toContain('No Fermix daemon is running');

    // An empty key is refused in words before anything is stored (it used to print zod's raw issue list).
    secretInput = '';
    const empty = await run('auth', 'set', 'slack', '--stdin');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/^fermix: No key was given for slack; nothing was stored\.\n  → Run `(npx |node \S+ )?fermix plugins auth set slack` and type it, or pipe it in with --stdin\.$/);

    secretInput = 'xoxb-rejected-token';
    const rejected = await run('auth', 'set', 'slack', '--stdin', '--json');
    expect(rejected.code).toBe(1);
    expect(rejected.json.error.code).toBe('api_key_rejected');
    expect(rejected.json.error.sentence).toContain('API key rejected by Slack');

    secretInput = `${SLACK_GOOD_TOKEN}\n`;
    const stored = await run('auth', 'set', 'slack', '--stdin', '--json');
    expect(stored.json.result).toEqual({ name: 'slack', stored: true, checked: true, account: 'fermixbot@Acme', status: 'ready' });
    expect(readFileSync(paths.config, 'utf8')).toContain('secret_ref = "keychain:plugin_slack_SLACK_BOT_TOKEN"');
    expect(readFileSync(paths.config, 'utf8')).not.toContain(SLACK_GOOD_TOKEN);
    const ready = (await run('list', '--json')).json.result.plugins.find((p: { name: string }) => p.name === 'slack');
    expect(ready).toMatchObject({ status: 'ready', enabled: true, version: '1.0.0', tools: expect.arrayContaining(['slack_list_channels']) });
    expect(ready.account).toBe('fermixbot@Acme');
    expect((await run('auth', 'status', 'slack', '--json')).json.result.plugins).toEqual([{ name: 'slack', auth_type: 'api_key', status: 'ready', secret_set: true, account: 'fermixbot@Acme' }]);
  });

  it('config, store verbs and auth clear', async () => {
    const config = await run('config', 'set', 'slack', 'CHANNEL', 'x', '--json');
    expect([config.code, config.json.error.code]).toEqual([1, 'unknown_config_key']);
    expect((await run('config', 'slack', '--json')).json.result).toEqual({ name: 'slack', keys: [] });
    expect((await run('installed', '--json')).json.result.plugins).toEqual([{ name: 'slack', current: '1.0.0', pinned: null, versions: ['1.0.0'] }]);
    expect((await run('pin', 'slack@1.0.0', '--json')).json.result).toMatchObject({ version: '1.0.0', pinned: true });
    expect((await run('upgrade', 'slack', '--json')).json.result).toMatchObject({ from: '1.0.0', to: '1.0.0', upgraded: false });
    expect((await run('gc', '--json')).json.result).toEqual({ removed: [] });
    const doctor = await run('doctor', 'slack', '--json');
    expect(doctor.json.result).toEqual({ trust_dev_key: true, dev_local: null, plugins: [{ name: 'slack', status: 'ready', enabled: true, version: '1.0.0', detail: null, live: null, remote: false }] });

    const cleared = await run('auth', 'clear', 'slack');
    expect(cleared.stdout).toContain('Nothing was revoked upstream');
    expect(readFileSync(paths.config, 'utf8')).not.toContain('secret_ref');
    expect(readFileSync(paths.config, 'utf8')).not.toContain('fermixbot');
    expect((await run('list', '--json')).json.result.plugins.find((p: { name: string }) => p.name === 'slack').status).toBe('needs_secret');

    expect((await run('disable', 'slack', '--json')).json.result).toEqual({ name: 'slack', enabled: false, status: 'disabled' });
    expect((await run('uninstall', 'slack', '--json')).json.result).toEqual({ name: 'slack', removed: true });
    const again = await run('uninstall', 'slack', '--json');
    expect([again.code, again.json.error.code]).toEqual([1, 'not_installed']);
  });
});
