import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestPolicy } from '../main/net/test-policy.js';
import { rejectionOf } from '../main/net/test-support.js';
import { readTokens, writeTokens } from '../main/plugins/auth/token-store.js';
import { createPluginService, type PluginService } from '../main/plugins/service.js';
import { createPluginHandlers } from '../main/daemon/plugin-handlers.js';
import { createSecretStore, type SecretStore } from '../main/secrets/secret-store.js';
import { approveInBrowser } from './fixtures/oauth-server/consent-driver.js';
import { GOOGLE_ACCOUNT, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, startGoogleAccountsFake, type GoogleAccountsFake } from './fixtures/plugin-fakes/google-accounts-fake.js';
import { startGoogleFake } from './fixtures/plugin-fakes/google-fake.js';
import { AGENTMAIL_KEY, startAgentmailFake } from './fixtures/plugin-fakes/agentmail-fake.js';
import { DISCORD_TOKEN, startDiscordFake } from './fixtures/plugin-fakes/discord-fake.js';
import type { VendorFake } from './fixtures/plugin-fakes/vendor-fake.js';
import { ROOT } from './support/daemon-process.js';

// "Connected as …" (the card) and `account` (`plugins list --json`, plugins.status) for the plugins
// whose sign-in names one. The bundled Google trio signs in through the real OAuth manager: Google's
// authorize, token and OIDC userinfo hosts as local fakes, the loopback redirect driven headlessly.
// API keys: the health check's answer names the account when the key is set (Slack's auth.test is
// covered end to end in plugins-cli.test.ts and e2e/plugins.test.ts). GitHub: plugins-oauth.test.ts;
// Notion and X: their rail tests.
let home: string;
let accounts: GoogleAccountsFake;
let gmailApi: VendorFake;
let discord: VendorFake;
let agentmail: VendorFake;
let secrets: SecretStore;
let service: PluginService;

const listed = async (name: string) => (await createPluginHandlers(service)['plugins.status']({ name }, { transport: 'socket' } as never)).plugins[0];
const search = (query: string) => service.registry.find('gmail_search_messages')!.executor!({ query }, context());
const context = () => ({ trust: 'operator' as const, origin: 'cli' as const, signal: new AbortController().signal, services: {} });

async function signIn(name: string) {
  const started = await service.oauthLoginStart(name, { timeout_ms: 30_000 });
  const page = await approveInBrowser(started.url, { port: accounts.authorizePort, ca: accounts.ca });
  expect(page.status, page.body).toBe(200);
  expect(page.body).toContain(`Fermix is connected to Google for the ${name} plugin.`);
  return { started, done: await service.oauthLoginWait(name, 30_000) };
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'resources', 'catalog', 'index.json'))) throw new Error('resources/catalog/index.json is missing: run `node scripts/build-catalog.mjs` (npm ci does).');
  home = mkdtempSync(join(tmpdir(), 'fermix-google-oauth-'));
  accounts = await startGoogleAccountsFake();
  gmailApi = await startGoogleFake('gmail.googleapis.com');
  discord = await startDiscordFake();
  agentmail = await startAgentmailFake();
  const configFile = join(home, 'config.toml');
  writeFileSync(configFile, '[fermix_core]\nsecret_store = "file"\n\n[fermix_core.plugins]\ntrust_dev_key = true\n');
  secrets = createSecretStore({ kind: 'file', fermixHome: home });
  service = createPluginService({
    pluginsDir: join(home, 'plugins'), configFile, resourcesDir: join(ROOT, 'resources'), coreVersion: '0.1.0', keychain: secrets,
    net: {
      policy: createTestPolicy(), ca: [...accounts.ca, gmailApi.ca, discord.ca, agentmail.ca], lookup: async () => [{ address: '127.0.0.1', family: 4 }],
      testPortOverrides: { ...accounts.ports, 'gmail.googleapis.com': gmailApi.server.port, 'discord.com': discord.server.port, 'api.agentmail.to': agentmail.server.port },
    },
  });
});
afterAll(async () => {
  service?.oauth.close();
  await gmailApi?.close();
  await discord?.close();
  await agentmail?.close();
  await accounts?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('Google sign-in for the bundled trio (oauth2.googleapis.com, OIDC userinfo)', () => {
  it('connects Gmail with PKCE, offline access and client_secret_post, and names the account by its userinfo email', async () => {
    await service.enable('gmail');
    service.setOAuthClient('google', { client_id: GOOGLE_CLIENT_ID, client_secret: GOOGLE_CLIENT_SECRET });
    expect((await listed('gmail')).status).toBe('needs_auth');

    const { started, done } = await signIn('gmail');
    const url = new URL(started.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://accounts.google.com/o/oauth2/v2/auth');
    expect(Object.fromEntries(['access_type', 'prompt', 'code_challenge_method', 'client_id'].map((key) => [key, url.searchParams.get(key)]))).toEqual({ access_type: 'offline', prompt: 'consent', code_challenge_method: 'S256', client_id: GOOGLE_CLIENT_ID });
    expect(url.searchParams.get('scope')?.split(' ').slice(0, 3)).toEqual(['openid', 'email', 'profile']);
    expect(done).toEqual({ name: 'gmail', connected: true, status: 'ready' });
    expect([accounts.issued.grants, accounts.userinfoCalls]).toEqual([['authorization_code'], 1]);

    const stored = readTokens(secrets, 'gmail')!;
    expect([stored.account, stored.refresh_token, stored.provider]).toEqual([GOOGLE_ACCOUNT.email, '1//0g-refresh-1', 'google']);
    expect(stored.expires_at! - stored.obtained_at).toBe(3_599_000);
    // What `fermix plugins list --json` and the Plugins card read: the card prints "Connected as <account>".
    expect(await listed('gmail')).toMatchObject({ name: 'gmail', status: 'ready', auth_type: 'oauth2', account: 'ana.lima@gmail.com', reconnect_needed: false });
    expect(service.authStatus('gmail')[0]).toMatchObject({ account: 'ana.lima@gmail.com', oauth_connected: true });

    // The issued token is what the Gmail API fake accepts: the tools run on this sign-in.
    const found = await search('from:ada');
    expect((found.data as { items: unknown[] }).items).toHaveLength(5);
  });

  it('refreshes within 10 s of expiry keeping the unrotated refresh token and the account; a sign-in stored without one learns it', async () => {
    writeTokens(secrets, 'gmail', { ...readTokens(secrets, 'gmail')!, expires_at: Date.now() + 5_000, account: null });
    expect((await listed('gmail')).account).toBeNull();
    await search('x');
    const after = readTokens(secrets, 'gmail')!;
    expect([accounts.issued.grants, after.refresh_token, after.account]).toEqual([['authorization_code', 'refresh_token'], '1//0g-refresh-1', GOOGLE_ACCOUNT.email]);
    expect(after.expires_at! - Date.now()).toBeGreaterThan(3_000_000);
    expect((await listed('gmail')).account).toBe(GOOGLE_ACCOUNT.email);
  });

  it('a wrong client secret is oauth_client_rejected; a revoked refresh token needs reconnection; logout revokes upstream', async () => {
    service.setOAuthClient('google', { client_id: GOOGLE_CLIENT_ID, client_secret: 'GOCSPX-rotated' });
    expect((await rejectionOf(service.oauthRefresh('gmail'))).code).toBe('oauth_client_rejected');
    expect((await listed('gmail')).status).toBe('ready');
    service.setOAuthClient('google', { client_id: GOOGLE_CLIENT_ID, client_secret: GOOGLE_CLIENT_SECRET });

    accounts.revoked.add(readTokens(secrets, 'gmail')!.refresh_token!);
    const revoked = await rejectionOf(service.oauthRefresh('gmail'));
    expect([revoked.code, revoked.data]).toEqual(['reauthorization_required', { plugin: 'gmail', provider_error: 'invalid_grant' }]);
    expect(await listed('gmail')).toMatchObject({ status: 'reauthorization_required', reconnect_needed: true, account: GOOGLE_ACCOUNT.email });

    // Each of the trio signs in on its own (its own profile_key); the same provider names the account.
    await service.enable('google_calendar');
    expect((await signIn('google_calendar')).done.status).toBe('ready');
    expect((await listed('google_calendar')).account).toBe(GOOGLE_ACCOUNT.email);
    const refreshToken = readTokens(secrets, 'google_calendar')!.refresh_token!;
    expect(await service.oauthLogout('google_calendar')).toMatchObject({ deleted: true, revoked_upstream: true, status: 'needs_auth' });
    expect(accounts.revoked.has(refreshToken)).toBe(true);
    expect((await listed('google_calendar')).account).toBeNull();
  });
});

describe('API-key plugins: the account the key belongs to, recorded when the key is set', () => {
  it('Discord: GET /users/@me with `Bot <token>` names the bot; clearing the key forgets it', async () => {
    await service.enable('discord');
    expect(await service.setSecret('discord', DISCORD_TOKEN)).toMatchObject({ name: 'discord', stored: true, checked: true, account: 'fermixbot', status: 'ready' });
    expect(discord.server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/v10/users/@me' });
    expect(discord.server.requests.at(-1)!.headers.authorization).toBe(`Bot ${DISCORD_TOKEN}`);
    expect(await listed('discord')).toMatchObject({ status: 'ready', auth_type: 'api_key', account: 'fermixbot' });
    expect(service.authStatus('discord')[0]).toMatchObject({ secret_set: true, account: 'fermixbot' });
    service.clearSecret('discord');
    expect(await listed('discord')).toMatchObject({ status: 'needs_secret', account: null });
  });

  it('AgentMail: the key is checked by listing inboxes, and its API names no account for a key, so none is shown', async () => {
    await service.enable('agentmail');
    expect(await service.setSecret('agentmail', AGENTMAIL_KEY)).toMatchObject({ stored: true, checked: true, account: null, status: 'ready' });
    expect(agentmail.server.requests.at(-1)!.path).toBe('/v0/inboxes?limit=1');
    expect(await listed('agentmail')).toMatchObject({ status: 'ready', account: null });
  });
});
