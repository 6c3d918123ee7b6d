import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestPolicy } from '../../../net/test-policy.js';
import { rejectionOf } from '../../../net/test-support.js';
import { decodeManifest } from '../../manifest.js';
import { PLUGIN_SOURCES } from '../../../../test/fixtures/plugin-fakes/catalog-fixture.js';
import { AGENTMAIL_KEY, startAgentmailFake } from '../../../../test/fixtures/plugin-fakes/agentmail-fake.js';
import type { VendorFake } from '../../../../test/fixtures/plugin-fakes/vendor-fake.js';
import { callHttpTool, checkCredential, type HttpRailNet } from './interpreter.js';

let fake: VendorFake;
let net: HttpRailNet;
const file = join(PLUGIN_SOURCES, 'agentmail', 'plugin.json');
const manifest = decodeManifest(readFileSync(file, 'utf8'), file, 'agentmail');
const call = (name: string, args: Record<string, unknown>, token = AGENTMAIL_KEY) =>
  callHttpTool(manifest.tools.find((t) => t.name === name)!, args, { plugin: 'agentmail', auth: manifest.auth, credential: async () => token, net });
const inbox = 'agent0@agentmail.to';

beforeAll(async () => {
  fake = await startAgentmailFake();
  net = { policy: createTestPolicy(), ca: fake.ca, lookup: async () => [{ address: '127.0.0.1', family: 4 }], testPortOverrides: { 'api.agentmail.to': fake.server.port } };
});
afterAll(() => fake.close());

describe('HTTP rail against the AgentMail fake', () => {
  it('declares the reference tools and pages with next_page_token → page_token', async () => {
    expect(manifest.tools.map((t) => t.name)).toEqual(['agentmail_create_inbox', 'agentmail_list_inboxes', 'agentmail_list_messages', 'agentmail_get_message', 'agentmail_send_message', 'agentmail_reply', 'agentmail_list_threads', 'agentmail_get_thread']);
    const inboxes = (await call('agentmail_list_inboxes', { limit: 2 })).data as { items: { inbox_id: string }[]; truncated: boolean };
    expect([inboxes.items.map((i) => i.inbox_id), inboxes.truncated]).toEqual([['agent0@agentmail.to', 'agent1@agentmail.to', 'agent2@agentmail.to'], false]);
    const seen = fake.server.requests.filter((r) => r.path.startsWith('/v0/inboxes?'));
    expect([seen[0].headers.authorization, new URL(seen[1].path, 'https://x').searchParams.get('page_token')]).toEqual([`Bearer ${AGENTMAIL_KEY}`, expect.any(String)]);
    const listed = (await call('agentmail_list_messages', { inbox_id: inbox, limit: 2 })).data as { items: { subject: string }[] };
    expect(listed.items.map((m) => m.subject)).toEqual(['Hello 0', 'Hello 1', 'Hello 2']);
  });

  it('reads, sends, replies and reads threads (inbox and message ids encoded into the path)', async () => {
    expect(((await call('agentmail_get_message', { inbox_id: inbox, message_id: '<m1@agentmail.to>' })).data as { text: string }).text).toBe('body 1');
    expect(fake.server.requests.at(-1)!.path).toBe('/v0/inboxes/agent0%40agentmail.to/messages/%3Cm1%40agentmail.to%3E');
    expect((await call('agentmail_send_message', { inbox_id: inbox, to: ['ada@example.com'], subject: 'Hi', text: 'Hello Ada' })).data).toEqual({ message_id: '<sent@agentmail.to>', thread_id: 't-sent' });
    expect(fake.bodies.at(-1)).toEqual({ to: ['ada@example.com'], subject: 'Hi', text: 'Hello Ada' });
    expect((await call('agentmail_reply', { inbox_id: inbox, message_id: '<m1@agentmail.to>', text: 'Thanks' })).data).toEqual({ message_id: '<reply@agentmail.to>', thread_id: 't1' });
    expect(((await call('agentmail_list_threads', { inbox_id: inbox })).data as { items: unknown[] }).items).toHaveLength(1);
    expect(((await call('agentmail_get_thread', { inbox_id: inbox, thread_id: 't1' })).data as { message_count: number }).message_count).toBe(1);
    expect(((await call('agentmail_create_inbox', { username: 'helper' })).data as { inbox_id: string }).inbox_id).toBe('helper@agentmail.to');
  });

  it('checks the key, and classes {name, message} errors', async () => {
    expect(await checkCredential('agentmail', manifest.auth, AGENTMAIL_KEY, net)).toEqual({ accepted: true, account: null });
    expect((await checkCredential('agentmail', manifest.auth, 'am_wrong', net)).accepted).toBe(false);
    const rejected = await rejectionOf(call('agentmail_list_inboxes', {}, 'am_revoked'));
    expect([rejected.code, rejected.message]).toEqual(['api_key_rejected', 'API key rejected.']);
    const missing = await rejectionOf(call('agentmail_get_thread', { inbox_id: inbox, thread_id: 'nope' }));
    expect(missing.message).toBe('request failed (404) — {"name":"NotFoundError","message":"Resource not found"}');
  });
});
