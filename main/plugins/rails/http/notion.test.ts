import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withOAuthBench } from '../../../../test/fixtures/plugin-fakes/oauth-sign-in.js';
import { createTestPolicy } from '../../../net/test-policy.js';
import { rejectionOf } from '../../../net/test-support.js';
import { decodeManifest } from '../../manifest.js';
import { PLUGIN_SOURCES } from '../../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { NOTION_CLIENT_ID, NOTION_CLIENT_SECRET, NOTION_TOKEN, startNotionFake, type NotionFake } from '../../../../test/fixtures/plugin-fakes/notion-fake.js';
import { callHttpTool, type HttpRailNet } from './interpreter.js';

let fake: NotionFake;
let net: HttpRailNet;
const file = join(PLUGIN_SOURCES, 'notion', 'plugin.json');
const manifest = decodeManifest(readFileSync(file, 'utf8'), file, 'notion');
const call = (name: string, args: Record<string, unknown>, token: string | null = NOTION_TOKEN) =>
  callHttpTool(manifest.tools.find((t) => t.name === name)!, args, { plugin: 'notion', auth: manifest.auth, credential: async () => token, net });

beforeAll(async () => {
  fake = await startNotionFake();
  net = { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'api.notion.com': fake.server.port } };
});
afterAll(() => fake.close());

describe('HTTP rail against the Notion fake', () => {
  it('declares the tools of reference §3.4, signs in with oauth2 notion (scopes []) and sends Notion-Version on every request', () => {
    expect(manifest.tools.map((t) => t.name)).toEqual(['notion_search', 'notion_get_page', 'notion_get_block_children', 'notion_create_page', 'notion_update_page', 'notion_append_blocks', 'notion_get_data_source', 'notion_query_data_source', 'notion_get_me']);
    expect(manifest.auth).toEqual({ type: 'oauth2', provider: 'notion', scopes: [] });
    for (const tool of manifest.tools) expect(tool.request?.headers?.['Notion-Version']).toBe('2026-03-11');
  });

  it('pages search with next_cursor → start_cursor in the body, and block children in the query', async () => {
    const search = (await call('notion_search', { query: 'Page', object_type: 'page' })).data as { items: { id: string }[]; truncated: boolean };
    expect([search.items.map((p) => p.id), search.truncated]).toEqual([['page-0', 'page-1', 'page-2', 'page-3', 'page-4'], false]);
    const bodies = fake.bodies.slice(-3) as Record<string, unknown>[];
    expect(bodies[0]).toEqual({ query: 'Page', filter: { property: 'object', value: 'page' } });
    expect(bodies.map((b) => typeof b.start_cursor)).toEqual(['undefined', 'string', 'string']);
    const seen = fake.server.requests.at(-1)!;
    expect(seen.headers).toMatchObject({ authorization: `Bearer ${NOTION_TOKEN}`, 'notion-version': '2026-03-11' });
    const children = (await call('notion_get_block_children', { block_id: 'page-1', page_size: 2 })).data as { items: { id: string; paragraph: unknown }[] };
    expect(children.items.map((b) => b.id)).toEqual(['block-0', 'block-1', 'block-2']);
    expect(fake.server.requests.at(-1)!.path).toContain('start_cursor=');
  });

  it('reads, creates, updates and appends with JSON bodies (absent options left out)', async () => {
    expect(((await call('notion_get_page', { page_id: 'page-1' })).data as { id: string }).id).toBe('page-1');
    const properties = { title: { title: [{ text: { content: 'New' } }] } };
    expect(((await call('notion_create_page', { parent_page_id: 'page-0', properties })).data as { id: string }).id).toBe('page-new');
    expect(fake.bodies.at(-1)).toEqual({ parent: { page_id: 'page-0' }, properties });
    expect(((await call('notion_update_page', { page_id: 'page-1', in_trash: true })).data as { in_trash: boolean }).in_trash).toBe(true);
    expect(fake.bodies.at(-1)).toEqual({ in_trash: true });
    const appended = (await call('notion_append_blocks', { block_id: 'page-1', children: [{ paragraph: { rich_text: [{ text: { content: 'hi' } }] } }] })).data;
    expect(appended).toEqual([{ object: 'block', id: 'new-0', type: 'paragraph', has_children: false }]);
    expect(((await call('notion_get_data_source', { data_source_id: 'ds-1' })).data as { properties: object }).properties).toHaveProperty('Done');
    expect(((await call('notion_query_data_source', { data_source_id: 'ds-1', filter: { property: 'Done', checkbox: { equals: false } } })).data as { items: unknown[] }).items).toHaveLength(1);
  });

  it('classes Notion error bodies: 401 needs reconnection, 404 object_not_found, 429 with Retry-After', async () => {
    const rejected = await rejectionOf(call('notion_get_me', {}, 'ntn_revoked'));
    expect([rejected.code, rejected.hint]).toEqual(['reauthorization_required', 'Run `fermix plugins auth reauthorize notion`.']);
    const missing = await rejectionOf(call('notion_get_page', { page_id: 'unshared' }));
    expect(missing.code).toBe('request_failed');
    expect(missing.message).toContain('request failed (404) — {"object":"error","status":404,"code":"object_not_found"');
    const rate = await rejectionOf(call('notion_query_data_source', { data_source_id: 'ds-busy' }));
    expect([rate.code, rate.message]).toEqual(['rate_limited', 'rate-limited retry after 7s']);
  });

  it('signs in through Notion OAuth (HTTP Basic client auth), with and without a refresh token and expiry', async () => {
    const auth = manifest.auth as Extract<typeof manifest.auth, { type: 'oauth2' }>;
    await withOAuthBench(net, { provider: 'notion', client_id: NOTION_CLIENT_ID, client_secret: NOTION_CLIENT_SECRET }, async (bench) => {
      const { oauth } = bench;
      const signIn = async () => {
        const { url, tokens } = await bench.signIn('notion', auth, { port: fake.server.port, ca: fake.ca });
        expect([`${url.origin}${url.pathname}`, url.searchParams.get('owner'), url.searchParams.has('scope')]).toEqual(['https://api.notion.com/v1/oauth/authorize', 'user', false]);
        return tokens;
      };

      // Older integrations: no refresh token and no expiry — the token is used as is, and a refresh
      // (what a read-only 401 would try) says to reconnect rather than failing obscurely.
      const legacy = await signIn();
      expect([legacy.refresh_token, legacy.expires_at, legacy.account, fake.oauth.grants]).toEqual([null, null, 'Ana Lima', ['authorization_code']]);
      const me = await callHttpTool(manifest.tools.find((t) => t.name === 'notion_get_me')!, {}, { plugin: 'notion', auth, net, credential: () => oauth.credential('notion', auth) });
      expect((me.data as { id: string }).id).toBe('bot-1');
      const noRefresh = await rejectionOf(oauth.refresh('notion', auth));
      expect([noRefresh.code, noRefresh.data]).toEqual(['reauthorization_required', { plugin: 'notion', provider_error: 'no refresh token' }]);

      // Newer integrations: a refresh token and expires_in, refreshed with the same Basic client auth.
      fake.oauth.refreshing = true;
      const rotating = await signIn();
      expect([rotating.refresh_token, typeof rotating.expires_at]).toEqual(['nrt_2', 'number']);
      const refreshed = await oauth.refresh('notion', auth);
      expect([refreshed.refresh_token, refreshed.account, fake.oauth.grants]).toEqual(['nrt_3', 'Ana Lima', ['authorization_code', 'authorization_code', 'refresh_token']]);

      // A wrong client secret is the distinct "update the client" error.
      oauth.setClient('notion', { client_id: NOTION_CLIENT_ID, client_secret: 'secret_wrong' });
      expect((await rejectionOf(oauth.refresh('notion', auth))).code).toBe('oauth_client_rejected');
    });
  });
});
