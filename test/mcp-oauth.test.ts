// OAuth for an operator Streamable HTTP server against a real authorization server: the SDK's auth
// router + bearer middleware in test/fixtures/mcp-oauth/ (dynamic client registration, PKCE, refresh,
// revocation). The consent page is answered with the form post a browser would send, and the redirect
// then lands on our loopback listener exactly as the browser's would. Everything on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpStack, serverConfig, type McpStack } from '../main/mcp/test-stack.js';
import { oauthSecretName } from '../main/mcp/oauth.js';
import { startOAuthMcpFixture, type OAuthMcpFixture } from './fixtures/mcp-oauth/server.js';

let fixture: OAuthMcpFixture;
let stack: McpStack;
const CALL = { trust: 'operator' as const, origin: 'chat' as const };
const mcpTools = () => stack.registry.list({ kind: 'mcp' }).map((cap) => cap.name).sort();
const status = () => stack.supervisor.get('remote')?.status;

/** The person's part: approve (or deny) on the consent page, then the browser follows the redirect to us. */
async function consent(url: string, decision: 'approve' | 'deny'): Promise<{ status: number; text: string }> {
  const answer = await fixture.answerConsent(url, decision);
  expect(answer.status).toBe(302);
  const redirect = new URL(answer.location!);
  expect(redirect.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const page = await fetch(redirect);
  return { status: page.status, text: await page.text() };
}

beforeAll(async () => {
  fixture = await startOAuthMcpFixture();
  stack = createMcpStack();
  stack.supervisor.apply({ remote: serverConfig({ url: fixture.url, oauth: true, timeout_ms: 10_000 }) });
  await stack.supervisor.settled();
}, 30_000);

afterAll(async () => {
  await stack?.close();
  await fixture?.close();
});

describe('MCP OAuth sign-in', () => {
  it('waits in needs_auth before anyone signs in, without registering a client', () => {
    expect(status()).toBe('needs_auth');
    expect(stack.supervisor.get('remote')?.last_error).toContain('needs you to sign in');
    expect(mcpTools()).toEqual([]);
    expect(fixture.counts.registrations).toBe(0);
    expect(fixture.counts.rejectedBearer).toBeGreaterThan(0);
  });

  it('a refused authorization is a named error and leaves the server waiting for a sign-in', async () => {
    const started = await stack.oauth.start('remote', { timeoutMs: 20_000 });
    const waited = stack.oauth.wait('remote', 20_000);
    // It rejects while the consent is still being answered; the assertion below reads it.
    waited.catch(() => undefined);
    const page = await consent(started!.url, 'deny');
    expect(page.status).toBe(400);
    expect(page.text).toContain('declined');
    await expect(waited).rejects.toMatchObject({ code: 'oauth_denied', hint: expect.stringContaining('fermix mcp auth login remote') });
    expect(status()).toBe('needs_auth');
    expect(stack.secrets.has(oauthSecretName('remote', 'TOKENS'))).toBe(false);
  });

  it('login registers a client, stores the tokens in the secret store, connects, and the tools answer', async () => {
    const started = await stack.oauth.start('remote', { timeoutMs: 20_000 });
    const url = new URL(started!.url);
    expect(url.origin).toBe(fixture.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(started!.redirect_uri);
    const waited = stack.oauth.wait('remote', 20_000);
    const page = await consent(started!.url, 'approve');
    expect(page.status).toBe(200);
    expect(page.text).toContain('signed in to the MCP server remote');
    const done = await waited;
    expect(done.state?.status).toBe('ready');
    expect(mcpTools()).toEqual(['mcp_remote_echo', 'mcp_remote_whoami']);
    expect(fixture.counts.registrations).toBeGreaterThanOrEqual(1);
    expect(fixture.counts.codeGrants).toBe(1);
    const tokens = JSON.parse(stack.secrets.get(oauthSecretName('remote', 'TOKENS'))!) as { access_token: string; refresh_token: string };
    expect(tokens.access_token).toMatch(/^at_/);
    expect(tokens.refresh_token).toMatch(/^rt_/);
    // The PKCE verifier is spent: it does not outlive the sign-in.
    expect(stack.secrets.has(oauthSecretName('remote', 'VERIFIER'))).toBe(false);
    const result = await stack.invoker.execute('mcp_remote_echo', { text: 'through OAuth' }, CALL);
    expect(result.text).toBe('through OAuth');
    expect((await stack.invoker.execute('mcp_remote_whoami', {}, CALL)).text).toMatch(/^client client_/);
  });

  it('an expired access token is refreshed through the SDK and the call still answers', async () => {
    const before = JSON.parse(stack.secrets.get(oauthSecretName('remote', 'TOKENS'))!) as { access_token: string };
    fixture.expireAccessTokens();
    const rejected = fixture.counts.rejectedBearer;
    const result = await stack.invoker.execute('mcp_remote_echo', { text: 'after expiry' }, CALL);
    expect(result.text).toBe('after expiry');
    expect(fixture.counts.rejectedBearer).toBe(rejected + 1);
    expect(fixture.counts.refreshGrants).toBe(1);
    const after = JSON.parse(stack.secrets.get(oauthSecretName('remote', 'TOKENS'))!) as { access_token: string };
    expect(after.access_token).not.toBe(before.access_token);
    expect(status()).toBe('ready');
  });

  it('a sign-in withdrawn at the server fails the call with needs_auth and puts the server back to waiting for one', async () => {
    fixture.revokeAll();
    await expect(stack.invoker.execute('mcp_remote_echo', { text: 'after revocation' }, CALL)).rejects.toMatchObject({ code: 'needs_auth', hint: expect.stringContaining('fermix mcp auth login remote') });
    expect(status()).toBe('needs_auth');
    expect(mcpTools()).toEqual([]);
    // The refused tokens are gone (the SDK invalidated them); signing in again brings the tools back.
    expect(stack.secrets.has(oauthSecretName('remote', 'TOKENS'))).toBe(false);
    const started = await stack.oauth.start('remote', { timeoutMs: 20_000 });
    const waited = stack.oauth.wait('remote', 20_000);
    expect((await consent(started!.url, 'approve')).status).toBe(200);
    expect((await waited).state?.status).toBe('ready');
    expect((await stack.invoker.execute('mcp_remote_echo', { text: 'signed in again' }, CALL)).text).toBe('signed in again');
  });

  it('logout revokes upstream, deletes the sign-in from the secret store, and the server needs a sign-in again', async () => {
    const revocations = fixture.counts.revocations;
    const done = await stack.oauth.logout('remote');
    expect(done).toMatchObject({ name: 'remote', deleted: true, revoked_upstream: true });
    expect(fixture.counts.revocations).toBe(revocations + 1);
    expect(done!.state?.status).toBe('needs_auth');
    // (The next attempt's discovery is cached again: metadata, not a credential.)
    for (const item of ['TOKENS', 'CLIENT', 'VERIFIER'] as const) expect(stack.secrets.has(oauthSecretName('remote', item))).toBe(false);
    expect(mcpTools()).toEqual([]);
    await expect(stack.invoker.execute('mcp_remote_echo', { text: 'x' }, CALL)).rejects.toMatchObject({ code: 'unknown_capability' });
  });

  it('refuses a sign-in for a server that is not configured for OAuth', async () => {
    stack.supervisor.apply({ remote: serverConfig({ url: fixture.url, oauth: true, timeout_ms: 10_000 }), plain: serverConfig({ url: fixture.url, timeout_ms: 10_000 }) });
    await expect(stack.oauth.start('plain')).rejects.toMatchObject({ code: 'oauth_not_configured', hint: expect.stringContaining('oauth = true') });
    expect(await stack.oauth.start('missing')).toBeUndefined();
  });
});
