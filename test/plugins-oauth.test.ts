import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isFermixError, type FermixError } from '../main/core/errors.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import { authTokensDoctorCheck } from '../main/plugins/doctor-check.js';
import { readTokens, writeTokens } from '../main/plugins/auth/token-store.js';
import { createPluginService, type PluginService } from '../main/plugins/service.js';
import { createPluginHandlers } from '../main/daemon/plugin-handlers.js';
import { createSecretStore, type SecretStore } from '../main/secrets/secret-store.js';
import { approveInBrowser } from './fixtures/oauth-server/consent-driver.js';
import { startGithubGate, startOAuthServer, TEST_CLIENT_ID, TEST_CLIENT_SECRET, type GithubGate, type OAuthServer } from './fixtures/oauth-server/oauth-server.js';
import { startGithubFake, type GithubFake } from './fixtures/plugin-fakes/github-fake.js';
import { ROOT } from './support/daemon-process.js';

// The whole OAuth half against a real authorization server (oidc-provider over HTTPS with a test CA,
// answering as github.com) and the GitHub REST fake behind that server's live tokens. The loopback
// policy, resolver and port overrides are injected here, the test composition root, and nowhere else.
let home: string;
let as: OAuthServer;
let fake: GithubFake;
let gate: GithubGate;
let secrets: SecretStore;
let service: PluginService;

const context = () => ({ trust: 'operator' as const, origin: 'cli' as const, signal: new AbortController().signal, services: {} });
const tool = (name: string) => service.registry.find(name)?.executor;
const rejection = async (work: Promise<unknown>): Promise<FermixError> => {
  try {
    await work;
  } catch (error) {
    if (isFermixError(error)) return error;
    throw error;
  }
  throw new Error('expected a FermixError');
};
const status = () => service.reload().find((plugin) => plugin.name === 'github')?.status;
const refreshes = () => as.grants.filter((grant) => grant === 'refresh_token').length;

async function signIn(): Promise<{ status: number; body: string }> {
  const started = await service.oauthLoginStart('github', { timeout_ms: 30_000 });
  const page = await approveInBrowser(started.url, { port: as.server.port, ca: as.ca });
  if (page.status === 200) await service.oauthLoginWait('github', 30_000);
  return page;
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'resources', 'catalog', 'index.json'))) throw new Error('resources/catalog/index.json is missing: run `node scripts/build-catalog.mjs` (npm ci does).');
  home = mkdtempSync(join(tmpdir(), 'fermix-oauth-'));
  as = await startOAuthServer();
  fake = await startGithubFake();
  gate = await startGithubGate(as, fake);
  const configFile = join(home, 'config.toml');
  writeFileSync(configFile, '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\n');
  secrets = createSecretStore({ kind: 'file', fermixHome: home });
  service = createPluginService({
    pluginsDir: join(home, 'plugins'), configFile, resourcesDir: join(ROOT, 'resources'), coreVersion: '0.1.0', keychain: secrets,
    net: { policy: createTestPolicy(), ca: [as.ca, gate.ca], lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'github.com': as.server.port, 'api.github.com': gate.server.port } },
  });
});
afterAll(async () => {
  service?.oauth.close();
  await gate?.close();
  await fake?.close();
  await as?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('plugin OAuth against a local OAuth 2.0 server', () => {
  it('takes GitHub from needs_client_config to ready with a PKCE sign-in on a loopback redirect, tokens only in the secret store', async () => {
    await service.enable('github');
    expect(status()).toBe('needs_client_config');
    const refused = await rejection(service.oauthLoginStart('github'));
    expect([refused.code, refused.hint]).toEqual(['needs_client_config', 'Set one with `fermix plugins auth client github --client-id ID` (the secret is asked for), or on the setup Plugins page.']);

    service.setOAuthClient('github', { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET });
    expect(status()).toBe('needs_auth');
    const needsLogin = await rejection(service.oauthRefresh('github'));
    expect([needsLogin.message, needsLogin.hint]).toEqual(['github is enabled but not connected.', 'Run `fermix plugins auth login github`.']);

    const started = await service.oauthLoginStart('github', { timeout_ms: 30_000 });
    const url = new URL(started.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://github.com/login/oauth/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('scope')).toBe('read:user repo');
    expect(started.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const page = await approveInBrowser(started.url, { port: as.server.port, ca: as.ca });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Fermix is connected to GitHub');
    expect(await service.oauthLoginWait('github', 30_000)).toEqual({ name: 'github', connected: true, status: 'ready' });
    expect(as.grants).toEqual(['authorization_code']);

    const me = await tool('github_get_me')!({}, context());
    expect((me.data as { login: string }).login).toBe('ana');
    const stored = readTokens(secrets, 'github')!;
    // The account comes from GitHub's GET /user with the new token (through the gate: a live token only).
    expect(stored.account).toBe('ana');
    const { plugins } = await createPluginHandlers(service)['plugins.status']({}, { transport: 'socket' } as never);
    expect(plugins.find((plugin) => plugin.name === 'github')).toMatchObject({ status: 'ready', account: 'ana', reconnect_needed: false, source: 'catalog' });
    expect(stored.refresh_token).toBeTruthy();
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).not.toContain(stored.access_token);
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).not.toContain(TEST_CLIENT_SECRET);
  });

  it('refreshes on demand and within 10 s of expiry, and retries one 401 silently for read-only tools only', async () => {
    // A sign-in stored before accounts were recorded learns its account on the next refresh.
    writeTokens(secrets, 'github', { ...readTokens(secrets, 'github')!, account: null });
    expect(status()).toBe('ready');
    expect(service.reload().find((plugin) => plugin.name === 'github')?.account).toBeNull();
    const before = readTokens(secrets, 'github')!;
    await service.oauthRefresh('github');
    const after = readTokens(secrets, 'github')!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.account).toBe('ana');
    expect(refreshes()).toBe(1);

    // 5 s before expiry is inside the 10 s skew: the next call refreshes first.
    writeTokens(secrets, 'github', { ...after, expires_at: Date.now() + 5_000 });
    await tool('github_get_me')!({}, context());
    expect(refreshes()).toBe(2);

    await as.revokeAccessToken(readTokens(secrets, 'github')!.access_token);
    expect(((await tool('github_get_me')!({}, context())).data as { login: string }).login).toBe('ana');
    expect(refreshes()).toBe(3);

    await as.revokeAccessToken(readTokens(secrets, 'github')!.access_token);
    const write = await rejection(tool('github_create_issue')!({ owner: 'ana', repo: 'blog', title: 'Hello' }, context()));
    expect([write.code, write.message, write.hint]).toEqual(['reauthorization_required', 'github needs reconnection.', 'Run `fermix plugins auth reauthorize github`.']);
    expect(refreshes()).toBe(3);
    expect(status()).toBe('reauthorization_required');
    expect(service.authStatus('github')[0]).toMatchObject({ oauth_connected: true, reconnect_needed: true });
  });

  it('tells a rejected client apart from an expired sign-in, at sign-in and at refresh', async () => {
    expect((await signIn()).status).toBe(200);
    expect(status()).toBe('ready');
    service.setOAuthClient('github', { client_id: TEST_CLIENT_ID, client_secret: 'rotated-elsewhere' });
    const onRefresh = await rejection(service.oauthRefresh('github'));
    expect(onRefresh.code).toBe('oauth_client_rejected');
    expect(onRefresh.message).toBe('GitHub rejected the OAuth client (invalid_client); its id or secret is wrong or was rotated.');
    expect(onRefresh.hint).toContain('Update the client with `fermix plugins auth client github --client-id ID`');
    expect(status()).toBe('ready');

    const started = await service.oauthLoginStart('github', { timeout_ms: 30_000 });
    const waiting = rejection(service.oauthLoginWait('github', 30_000));
    const page = await approveInBrowser(started.url, { port: as.server.port, ca: as.ca });
    expect(page.status).toBe(400);
    expect(page.body).toContain('rejected the OAuth client');
    expect((await waiting).code).toBe('oauth_client_rejected');
    service.setOAuthClient('github', { client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET });
  });

  it('a revoked refresh token needs reconnection; the auth tokens row names stale sign-ins; logout deletes the tokens', async () => {
    expect(status()).toBe('ready');
    await as.revokeRefreshToken(readTokens(secrets, 'github')!.refresh_token!);
    const revoked = await rejection(service.oauthRefresh('github'));
    expect([revoked.code, revoked.message]).toEqual(['reauthorization_required', 'github needs reconnection.']);
    expect(status()).toBe('reauthorization_required');
    expect(service.registry.find('github_get_me')).toBeUndefined();

    expect((await signIn()).status).toBe(200);
    const row = authTokensDoctorCheck(() => service);
    expect(await row.run()).toMatchObject({ status: 'OK', detail: 'github signed in' });
    const fresh = service.reload().find((plugin) => plugin.name === 'github')!;
    expect([fresh.status, fresh.reconnect_needed]).toEqual(['ready', false]);
    // 59 min past expiry is not stale yet; 2 h is: the status carries the same verdict as the doctor row.
    writeTokens(secrets, 'github', { ...readTokens(secrets, 'github')!, expires_at: Date.now() - 59 * 60_000 });
    expect(service.reload().find((plugin) => plugin.name === 'github')?.reconnect_needed).toBe(false);
    writeTokens(secrets, 'github', { ...readTokens(secrets, 'github')!, expires_at: Date.now() - 2 * 3_600_000 });
    expect(await row.run()).toEqual({ status: 'WARN', detail: 'stale, re-auth may be needed: github', fix: 'Run `fermix plugins auth reauthorize github`.' });
    const { plugins } = await createPluginHandlers(service)['plugins.status']({ name: 'github' }, { transport: 'socket' } as never);
    expect(plugins[0]).toMatchObject({ name: 'github', reconnect_needed: true, account: 'ana' });

    const out = await service.oauthLogout('github');
    expect(out).toMatchObject({ name: 'github', deleted: true, status: 'needs_auth' });
    expect(readTokens(secrets, 'github')).toBeNull();
  });
});
