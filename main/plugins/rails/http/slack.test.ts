import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestPolicy } from '../../../net/test-policy.js';
import { rejectionOf } from '../../../net/test-support.js';
import { decodeManifest, type PluginManifest } from '../../manifest.js';
import { PLUGIN_SOURCES } from '../../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { SLACK_GOOD_TOKEN, SLACK_READONLY_TOKEN, startSlackFake, type SlackFake } from '../../../../test/fixtures/plugin-fakes/slack-fake.js';
import { callHttpTool, checkCredential, type HttpRailNet } from './interpreter.js';

let fake: SlackFake;
let net: HttpRailNet;
const file = join(PLUGIN_SOURCES, 'slack', 'plugin.json');
const manifest: PluginManifest = decodeManifest(readFileSync(file, 'utf8'), file, 'slack');
const tool = (name: string) => manifest.tools.find((t) => t.name === name)!;
const call = (name: string, args: Record<string, unknown>, token: string | null = SLACK_GOOD_TOKEN) =>
  callHttpTool(tool(name), args, { plugin: 'slack', auth: manifest.auth, credential: async () => token, net });

beforeAll(async () => {
  fake = await startSlackFake();
  net = { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'slack.com': fake.server.port } };
});
afterAll(() => fake.close());

describe('HTTP rail against the Slack fake', () => {
  it('pages with the cursor, keeps only allowlisted fields, and injects the bot token as Bearer', async () => {
    const result = await call('slack_list_channels', { limit: 3 });
    const data = result.data as { items: Record<string, unknown>[]; truncated: boolean };
    expect(data.items.map((c) => c.id)).toEqual(['C100', 'C101', 'C102', 'C103', 'C104', 'C105', 'C106']);
    expect(data.truncated).toBe(false);
    expect(Object.keys(data.items[0]).sort()).toEqual(['id', 'is_archived', 'is_private', 'name', 'num_members', 'purpose', 'topic']);
    const seen = fake.server.requests.filter((r) => r.path.startsWith('/api/conversations.list'));
    expect(seen).toHaveLength(3);
    expect(seen[0].headers.authorization).toBe(`Bearer ${SLACK_GOOD_TOKEN}`);
    expect(seen[1].path).toContain('cursor=');
    expect(result.text).not.toContain(SLACK_GOOD_TOKEN);
  });

  it('extracts a path (team.info) and checks the key with auth.test', async () => {
    expect((await call('slack_team_info', {})).data).toEqual({ id: 'T123', name: 'Acme', domain: 'acme', email_domain: 'acme.test' });
    expect(await checkCredential('slack', manifest.auth, SLACK_GOOD_TOKEN, net)).toEqual({ accepted: true, account: 'fermixbot@Acme' });
    expect((await checkCredential('slack', manifest.auth, 'xoxb-wrong', net)).accepted).toBe(false);
  });

  it('classes errors: rejected key, missing scope, rate limit, provider error (capped, redacted)', async () => {
    const rejected = await rejectionOf(call('slack_team_info', {}, 'xoxb-wrong'));
    expect([rejected.code, rejected.message, rejected.hint]).toEqual(['api_key_rejected', 'API key rejected.', 'Update it with `fermix plugins auth set slack`.']);
    const scope = await rejectionOf(call('slack_list_members', {}, SLACK_READONLY_TOKEN));
    expect([scope.code, scope.message]).toEqual(['permission_denied', 'permission denied (requires: users:read)']);
    const rate = await rejectionOf(call('slack_channel_history', { channel: 'C_RATE' }));
    expect([rate.code, rate.message]).toEqual(['rate_limited', 'rate-limited retry after 30s']);
    const provider = await rejectionOf(call('slack_channel_history', { channel: 'C_500' }));
    expect(provider.code).toBe('provider_error');
    expect(provider.message.startsWith('provider error (500) — ')).toBe(true);
    expect(provider.message).not.toContain(SLACK_GOOD_TOKEN);
    expect(provider.message.length).toBeLessThan(2048 + 40);
    const missing = await rejectionOf(call('slack_team_info', {}, null));
    expect([missing.code, missing.hint]).toEqual(['needs_secret', 'Set it with `fermix plugins auth set slack`.']);
  });

  it('refuses redirects, compressed and non-JSON bodies, and stops a streamed body at 5 MiB', async () => {
    expect((await rejectionOf(call('slack_channel_history', { channel: 'C_REDIRECT' }))).message).toBe('redirect refused: HTTP 302 to https://evil.example/steal');
    expect((await rejectionOf(call('slack_channel_history', { channel: 'C_GZIP' }))).code).toBe('compressed_response');
    expect((await rejectionOf(call('slack_channel_history', { channel: 'C_HTML' }))).message).toBe('unexpected non-JSON response');
    const big = await rejectionOf(call('slack_channel_history', { channel: 'C_BIG' }));
    expect([big.code, big.message]).toEqual(['response_too_large', 'response exceeds the size cap (downloads belong on the mcp rail)']);
  });

  it('validates arguments before any request, naming the parameter', async () => {
    const before = fake.server.requests.length;
    expect((await rejectionOf(call('slack_channel_history', {}))).message).toBe('missing required parameter: channel');
    expect((await rejectionOf(call('slack_channel_history', { channel: 5 }))).message).toBe('invalid parameter: channel');
    expect(fake.server.requests.length).toBe(before);
  });

  it('keeps Net.Guard on: without the test policy the loopback fake is refused', async () => {
    const guarded = await rejectionOf(callHttpTool(tool('slack_team_info'), {}, { plugin: 'slack', auth: manifest.auth, credential: async () => SLACK_GOOD_TOKEN, net: { ...net, policy: { allowLoopbackForTests: true } } }));
    expect(guarded.code).toBe('blocked_url');
  });
});
