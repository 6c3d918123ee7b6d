import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestPolicy } from '../../../net/test-policy.js';
import { rejectionOf } from '../../../net/test-support.js';
import { decodeManifest } from '../../manifest.js';
import { PLUGIN_SOURCES } from '../../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { X_CLIENT_ID, X_CLIENT_SECRET, X_NO_LIKE_TOKEN, X_POST_IDS, X_TOKEN, startXAuthorizeFake, startXFake, type XFake } from '../../../../test/fixtures/plugin-fakes/x-fake.js';
import { withOAuthBench } from '../../../../test/fixtures/plugin-fakes/oauth-sign-in.js';
import type { VendorFake } from '../../../../test/fixtures/plugin-fakes/vendor-fake.js';
import { callHttpTool, type HttpRailNet } from './interpreter.js';

// X is oauth2 (reference §3.4): the tool tests hand the user-context token to the rail directly, as
// github.test.ts does; the last test signs in through the OAuth manager against x.com and api.x.com.
let fake: XFake;
let authorize: VendorFake;
let net: HttpRailNet;
const file = join(PLUGIN_SOURCES, 'x', 'plugin.json');
const manifest = decodeManifest(readFileSync(file, 'utf8'), file, 'x');
const call = (name: string, args: Record<string, unknown>, token = X_TOKEN) =>
  callHttpTool(manifest.tools.find((t) => t.name === name)!, args, { plugin: 'x', auth: manifest.auth, credential: async () => token, net });

beforeAll(async () => {
  fake = await startXFake();
  authorize = await startXAuthorizeFake(fake.issued);
  net = { policy: createTestPolicy(), ca: [fake.ca, authorize.ca], lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'api.x.com': fake.server.port, 'x.com': authorize.server.port } };
});
afterAll(async () => {
  await authorize.close();
  await fake.close();
});

describe('HTTP rail against the X fake', () => {
  it('declares the reference tools and scopes; max_results is bounded 10–100 before any request', async () => {
    expect(manifest.version).toBe('1.0.1');
    expect(manifest.auth).toEqual({ type: 'oauth2', provider: 'x', scopes: ['tweet.read', 'users.read', 'tweet.write', 'like.write', 'offline.access'] });
    expect(manifest.tools.map((t) => t.name)).toEqual(['x_whoami', 'x_get_user', 'x_search_posts', 'x_get_post', 'x_user_posts', 'x_mentions', 'x_home_timeline', 'x_create_post', 'x_delete_post', 'x_like_post', 'x_repost']);
    const before = fake.server.requests.length;
    expect((await rejectionOf(call('x_search_posts', { query: 'a', max_results: 5 }))).message).toBe('invalid parameter: max_results');
    expect(fake.server.requests.length).toBe(before);
  });

  it('reads users and posts, paging search by next_token and timelines by pagination_token', async () => {
    expect((await call('x_whoami', {})).data).toMatchObject({ id: '42', username: 'ana' });
    expect(fake.server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${X_TOKEN}`);
    expect((await call('x_get_user', { username: 'ada' })).data).toEqual({ id: '7', name: 'Ada', username: 'ada' });
    const search = (await call('x_search_posts', { query: 'fermix', max_results: 10 })).data as { items: { text: string }[]; truncated: boolean };
    // max_pages 2 (each page is billed): two pages read, the third left, and truncated says so.
    expect([search.items.map((p) => p.text), search.truncated]).toEqual([['post 0', 'post 1', 'post 2', 'post 3'], true]);
    const timeline = (await call('x_home_timeline', { user_id: '42' })).data as { items: unknown[]; truncated: boolean };
    expect([timeline.items.length, timeline.truncated]).toEqual([5, false]);
    expect(fake.server.requests.at(-1)!.path).toContain('pagination_token=n3');
    expect(((await call('x_get_post', { id: X_POST_IDS[1] })).data as { text: string }).text).toBe('post 1');
  });

  it('creates (201, reply object only when given), deletes, likes and reposts', async () => {
    expect(((await call('x_create_post', { text: 'hello' })).data as { id: string }).id).toBe('1900000000000000000');
    expect(fake.bodies.at(-1)).toEqual({ text: 'hello' });
    await call('x_create_post', { text: 're', reply_to_id: X_POST_IDS[0] });
    expect(fake.bodies.at(-1)).toEqual({ text: 're', reply: { in_reply_to_tweet_id: X_POST_IDS[0] } });
    expect((await call('x_delete_post', { id: X_POST_IDS[1] })).data).toEqual({ deleted: true });
    expect((await call('x_like_post', { user_id: '42', tweet_id: X_POST_IDS[2] })).data).toEqual({ liked: true });
    expect((await call('x_repost', { user_id: '42', tweet_id: X_POST_IDS[2] })).data).toEqual({ retweeted: true });
  });

  it('classes 401 as reconnection, 403 naming like.write, 429 from x-rate-limit-reset', async () => {
    const revoked = await rejectionOf(call('x_whoami', {}, 'revoked'));
    expect([revoked.code, revoked.hint]).toEqual(['reauthorization_required', 'Run `fermix plugins auth reauthorize x`.']);
    const forbidden = await rejectionOf(call('x_like_post', { user_id: '42', tweet_id: X_POST_IDS[2] }, X_NO_LIKE_TOKEN));
    expect(forbidden.code).toBe('permission_denied');
    expect(forbidden.message).toContain('permission denied (requires: tweet.read, users.read, like.write) — {"title":"Forbidden"');
    const rate = await rejectionOf(call('x_search_posts', { query: 'busy' }));
    expect(rate.code).toBe('rate_limited');
    // The reset is 120 s ahead when the fake answers (time passes before the rail reads it; 60 is the no-header default).
    const seconds = Number(rate.data?.retry_after_s);
    expect(seconds > 60 && seconds <= 120 && rate.message === `rate-limited retry after ${seconds}s`).toBe(true);
  });

  it('signs in with PKCE and HTTP Basic client auth, names the account by GET /2/users/me, and rotates the refresh token', async () => {
    const auth = manifest.auth as Extract<typeof manifest.auth, { type: 'oauth2' }>;
    await withOAuthBench(net, { provider: 'x', client_id: X_CLIENT_ID, client_secret: X_CLIENT_SECRET }, async ({ oauth, signIn }) => {
      const { url, tokens } = await signIn('x', auth, { port: authorize.server.port, ca: authorize.ca });
      expect([`${url.origin}${url.pathname}`, url.searchParams.get('scope'), url.searchParams.get('code_challenge_method')]).toEqual(['https://x.com/i/oauth2/authorize', 'tweet.read users.read tweet.write like.write offline.access', 'S256']);
      expect([tokens.account, tokens.refresh_token, tokens.expires_at! - tokens.obtained_at, fake.issued.grants]).toEqual(['ana', 'x-refresh-1', 7_200_000, ['authorization_code']]);
      expect(fake.server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/2/users/me' });
      const me = await callHttpTool(manifest.tools.find((t) => t.name === 'x_whoami')!, {}, { plugin: 'x', auth, net, credential: () => oauth.credential('x', auth) });
      expect((me.data as { username: string }).username).toBe('ana');

      const refreshed = await oauth.refresh('x', auth);
      expect([refreshed.refresh_token, refreshed.account]).toEqual(['x-refresh-2', 'ana']);
      expect([oauth.facts('x').account, fake.issued.grants]).toEqual(['ana', ['authorization_code', 'refresh_token']]);
      oauth.setClient('x', { client_id: X_CLIENT_ID, client_secret: 'rotated-elsewhere' });
      expect((await rejectionOf(oauth.refresh('x', auth))).code).toBe('oauth_client_rejected');
    });
  });
});
