import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { homePaths, ensureHome, type HomePaths } from '../main/config/home.js';
import { pluginsVerb } from '../main/cli/verbs/plugins.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { approveInBrowser } from './fixtures/oauth-server/consent-driver.js';
import { startGithubGate, startOAuthServer, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type GithubGate, type OAuthServer } from './fixtures/oauth-server/oauth-server.js';
import { startGithubFake, type GithubFake } from './fixtures/plugin-fakes/github-fake.js';

// `fermix plugins auth …` in-process with no daemon (the local path): the client set from the CLI with
// the secret piped in, `login --no-browser` printing the URL (the test plays the browser), refresh, logout.
let as: OAuthServer;
let fake: GithubFake;
let gate: GithubGate;
let paths: HomePaths;
let approval: Promise<{ status: number }> | undefined;

const run = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await pluginsVerb({
    out: (t) => out.push(t),
    err: (t) => {
      err.push(t);
      const url = /https:\/\/github\.com\/login\/oauth\/authorize\?\S+/.exec(t)?.[0];
      if (url) approval = approveInBrowser(url, { port: as.server.port, ca: as.ca });
    },
  }, paths, argv, {
    readSecret: async () => TEST_CLIENT_SECRET,
    openUrl: () => { throw new Error('--no-browser must not open a browser'); },
    net: { policy: createTestPolicy(), ca: [as.ca, gate.ca], lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'github.com': as.server.port, 'api.github.com': gate.server.port } },
  });
  const stdout = out.join('\n');
  return { code, stdout, stderr: err.join('\n'), json: stdout.startsWith('{') ? JSON.parse(stdout) : null };
};

beforeAll(async () => {
  as = await startOAuthServer();
  fake = await startGithubFake();
  gate = await startGithubGate(as, fake);
  paths = homePaths(mkdtempSync(join(tmpdir(), 'fermix-oauth-cli-')));
  ensureHome(paths);
  writeFileSync(paths.config, '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\n');
});
afterAll(async () => {
  await gate?.close();
  await fake?.close();
  await as?.close();
  rmSync(paths.home, { recursive: true, force: true });
});

describe('fermix plugins auth (OAuth, no daemon running)', () => {
  it('sets the client, signs in with --no-browser, refreshes and logs out', async () => {
    expect((await run('enable', 'github', '--json')).json.result.status).toBe('needs_client_config');
    expect((await run('auth', 'client', 'github', '--json')).code).toBe(2);
    const client = await run('auth', 'client', 'github', '--client-id', TEST_CLIENT_ID, '--stdin', '--json');
    expect(client.json).toEqual({ schema_version: 1, ok: true, result: { provider: 'github', configured: true } });

    const login = await run('auth', 'login', 'github', '--no-browser', '--timeout', '30', '--json');
    expect(login.stderr).toContain('Open this URL in a browser to sign in to github for github:');
    expect((await approval!).status).toBe(200);
    expect(login.json.result).toMatchObject({ name: 'github', connected: true, status: 'ready', provider: 'github' });

    const refreshed = await run('auth', 'refresh', 'github', '--json');
    expect(refreshed.json.result).toMatchObject({ name: 'github', refreshed: true, status: 'ready' });
    expect(as.grants).toEqual(['authorization_code', 'refresh_token']);

    const status = await run('auth', 'status', 'github', '--json');
    expect(status.json.result.plugins[0]).toMatchObject({ name: 'github', status: 'ready', oauth_connected: true, reconnect_needed: false });
    const out = await run('auth', 'logout', 'github', '--json');
    expect(out.json.result).toMatchObject({ name: 'github', deleted: true, status: 'needs_auth' });
    const again = await run('auth', 'refresh', 'github', '--json');
    expect([again.code, again.json.error.code, again.json.error.sentence]).toEqual([1, 'needs_auth', 'github is enabled but not connected.']);
  });
});
