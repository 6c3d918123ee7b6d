import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestPolicy } from '../../../net/test-policy.js';
import { rejectionOf } from '../../../net/test-support.js';
import { decodeManifest } from '../../manifest.js';
import { PLUGIN_SOURCES } from '../../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { DISCORD_IDS, DISCORD_TOKEN, startDiscordFake } from '../../../../test/fixtures/plugin-fakes/discord-fake.js';
import type { VendorFake } from '../../../../test/fixtures/plugin-fakes/vendor-fake.js';
import { callHttpTool, checkCredential, type HttpRailNet } from './interpreter.js';

let fake: VendorFake;
let net: HttpRailNet;
const file = join(PLUGIN_SOURCES, 'discord', 'plugin.json');
const manifest = decodeManifest(readFileSync(file, 'utf8'), file, 'discord');
const call = (name: string, args: Record<string, unknown>, token = DISCORD_TOKEN) =>
  callHttpTool(manifest.tools.find((t) => t.name === name)!, args, { plugin: 'discord', auth: manifest.auth, credential: async () => token, net });
const paths = (prefix: string) => fake.server.requests.filter((r) => r.path.startsWith(prefix)).map((r) => new URL(r.path, 'https://x').searchParams);

beforeAll(async () => {
  fake = await startDiscordFake();
  net = { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'discord.com': fake.server.port } };
});
afterAll(() => fake.close());

describe('HTTP rail against the Discord fake', () => {
  it('sends `Authorization: Bot <token>` and the DiscordBot user agent; the health check names the bot', async () => {
    expect(manifest.tools.map((t) => t.name)).toEqual(['discord_list_guilds', 'discord_get_guild', 'discord_list_channels', 'discord_channel_messages', 'discord_list_members']);
    const guild = (await call('discord_get_guild', { guild_id: DISCORD_IDS.guild })).data;
    expect(guild).toEqual({ id: DISCORD_IDS.guild, name: 'Guild 0', description: 'first', owner_id: DISCORD_IDS.snow(1), approximate_member_count: 5, approximate_presence_count: 2, premium_tier: 0 });
    expect(fake.server.requests.at(-1)!.headers).toMatchObject({ authorization: `Bot ${DISCORD_TOKEN}`, 'user-agent': 'DiscordBot (https://fermix.sh, 1.0)' });
    expect(await checkCredential('discord', manifest.auth, DISCORD_TOKEN, net)).toEqual({ accepted: true, account: 'fermixbot' });
    expect((await checkCredential('discord', manifest.auth, 'wrong', net)).accepted).toBe(false);
  });

  it('pages by snowflake: guilds with after, messages with before, members by user.id', async () => {
    const guilds = (await call('discord_list_guilds', { limit: 2 })).data as { items: { id: string; name: string }[] };
    expect(guilds.items.map((g) => g.name)).toEqual(['Guild 0', 'Guild 1', 'Guild 2']);
    expect(paths('/api/v10/users/@me/guilds').map((q) => q.get('after'))).toEqual([null, DISCORD_IDS.snow(11), DISCORD_IDS.snow(12)]);
    const history = (await call('discord_channel_messages', { channel_id: DISCORD_IDS.channel, limit: 2 })).data as { items: { content: string }[] };
    expect(history.items.map((m) => m.content)).toEqual(['msg 0', 'msg 1', 'msg 2', 'msg 3', 'msg 4']);
    expect(paths(`/api/v10/channels/${DISCORD_IDS.channel}`).map((q) => q.get('before'))).toEqual([null, DISCORD_IDS.snow(499), DISCORD_IDS.snow(497), DISCORD_IDS.snow(496)]);
    const members = (await call('discord_list_members', { guild_id: DISCORD_IDS.guild, limit: 2 })).data as { items: { user: { username: string } }[] };
    expect(members.items.map((m) => m.user.username)).toEqual(['user0', 'user1', 'user2']);
    expect(paths(`/api/v10/guilds/${DISCORD_IDS.guild}/members`).map((q) => q.get('after'))).toEqual([null, DISCORD_IDS.snow(101), DISCORD_IDS.snow(102)]);
    expect((await call('discord_list_channels', { guild_id: DISCORD_IDS.guild })).data).toEqual([{ id: DISCORD_IDS.channel, name: 'general', type: 0, topic: null, parent_id: null, position: 0, nsfw: false }]);
  });

  it('classes {message, code} errors: 401, 403 Missing Access, 429 Retry-After, 404', async () => {
    const rejected = await rejectionOf(call('discord_list_guilds', {}, 'revoked'));
    expect([rejected.code, rejected.hint]).toEqual(['api_key_rejected', 'Update it with `fermix plugins auth set discord`.']);
    const forbidden = await rejectionOf(call('discord_list_members', { guild_id: DISCORD_IDS.forbiddenGuild }));
    expect(forbidden.code).toBe('permission_denied');
    expect(forbidden.message).toContain('"message":"Missing Access","code":50001');
    const rate = await rejectionOf(call('discord_channel_messages', { channel_id: DISCORD_IDS.busyChannel }));
    expect([rate.code, rate.message]).toEqual(['rate_limited', 'rate-limited retry after 3s']);
    expect((await rejectionOf(call('discord_channel_messages', { channel_id: '1' }))).message).toContain('request failed (404) — {"message":"Unknown Channel","code":10003}');
  });
});
