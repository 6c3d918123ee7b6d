/**
 * The hosted rail's API-3 call shaping against the SDK HTTPS fake (Eden's tools and hashes, with a
 * test manifest adding the optional blocks): `collection_policy` sets an absent limit to the default
 * and clamps a large one (as the fake received it) and caps the items a service sends back, saying so;
 * `argument_guards` refuse non-public URLs and non-ASCII strings before anything is sent (the fake
 * sees no call), for generated inputs too. And the startup rule's Retry-After: a short one is waited
 * out, one past the 60 s startup window stops the plugin as remote_busy with the time asked for.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedPluginSpec } from '../main/plugins/rails/mcp-hosted/hosted-rail.js';
import { EDEN_READ_TOKEN, EDEN_WRITE_TOKEN, startEdenFake } from './fixtures/hosted-mcp/eden-fake.js';
import { guardedEdenManifest } from './fixtures/hosted-mcp/guarded-eden-manifest.js';
import { refusedUrl, visibleAscii, withOneInvisible } from './fixtures/hosted-mcp/guard-inputs.js';
import { hostedRailTo } from './fixtures/hosted-mcp/rail-harness.js';
import { createTestPolicy } from '../main/net/test-policy.js';
import type { HostedFake } from './fixtures/hosted-mcp/server.js';
import { waitFor } from './support/daemon-process.js';

const manifest = guardedEdenManifest();
const capture: HostedPluginSpec = { manifest, token: EDEN_WRITE_TOKEN, choice: { workspace_id: 'ws_home', workspace_label: 'Home', profile: 'capture' } };
const item = (i: number) => ({ id: `item${i}`, title: `Item ${i}` });
let fake: HostedFake;

beforeAll(async () => {
  // The listing answers `limit` items, or 60 whatever the limit for the cursor "overfull" (a service that ignores it).
  fake = await startEdenFake({
    answer: (name, args) => {
      if (name !== 'eden_list_workspace_items') return undefined;
      const body = { ok: true, items: Array.from({ length: args.cursor === 'overfull' ? 60 : Number(args.limit) }, (_, i) => item(i)) };
      return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
    },
  });
});
afterAll(async () => fake.close());

async function readyRail(spec: HostedPluginSpec = capture) {
  const harness = hostedRailTo(fake, createTestPolicy(), { 'mcp.eden.so': fake.server.port }, { pacing: { minGapMs: 1, maxQueued: 16 } });
  harness.rail.apply({ eden: spec });
  await harness.rail.settled();
  expect(harness.rail.state('eden')?.status).toBe('ready');
  return harness;
}
const lastArgs = () => fake.calls.at(-1)!.args;

describe('collection_policy', () => {
  it('an absent limit is sent as the default, a large one clamped to max_returned_items, a small one kept', async () => {
    const { rail, run } = await readyRail();
    try {
      const plain = await run('eden_list_workspace_items', {});
      expect(lastArgs()).toEqual({ limit: 10, workspaceId: 'ws_home' });
      expect([plain.data.items.length, plain.text]).toEqual([10, expect.not.stringMatching(/truncated|lowered/)]);
      const large = await run('eden_list_workspace_items', { limit: 80 });
      expect(lastArgs().limit).toBe(25);
      expect(large.text).toContain('The requested limit 80 was lowered to 25');
      await run('eden_list_workspace_items', { limit: 3 });
      expect(lastArgs().limit).toBe(3);
      const calls = fake.calls.length;
      const wrong = await run('eden_list_workspace_items', { limit: 'all' });
      expect([wrong.code, fake.calls.length]).toEqual(['invalid_arguments', calls]);
    } finally {
      await rail.close();
    }
  });

  it('a service sending more items than max_returned_items is cut to the first 25, in data and in text, and the result says so', async () => {
    const { rail, run } = await readyRail();
    try {
      const result = await run('eden_list_workspace_items', { cursor: 'overfull' });
      expect(result.data).toEqual({ ok: true, items: Array.from({ length: 25 }, (_, i) => item(i)) });
      const [json, note] = result.text.split('\n\n');
      expect(JSON.parse(json)).toEqual(result.data);
      expect(note).toBe('[Items truncated: kept the first 25 of 60 items at /items; this plugin returns at most 25 per call. Ask for a narrower query or the next page.]');
      expect(result.audit).toMatchObject({ items_truncated: true, items_returned: 25, items_received: 60 });
      // A tool without a policy is left alone.
      expect((await run('eden_read_card', { cardId: 'c1' })).text).not.toContain('truncated');
    } finally {
      await rail.close();
    }
  });
});

const publicUrl = fc.constantFrom('https://example.com/a', 'http://news.example.org/story?id=1', 'https://93.184.216.34/page');

describe('argument_guards', () => {
  it('public http(s) URLs pass and reach the service; a non-public one anywhere in the array is refused with nothing sent', async () => {
    const { rail, run } = await readyRail();
    try {
      const sent = await run('eden_save_links_to_board', { boardId: 'b1', urls: ['https://example.com/a', 'http://93.184.216.34/b'] });
      expect(sent.data).toMatchObject({ ok: true });
      expect(lastArgs().urls).toEqual(['https://example.com/a', 'http://93.184.216.34/b']);
      const loopback = await run('eden_save_links_to_board', { boardId: 'b1', urls: ['https://example.com/a', 'http://127.0.0.1:4030/'] });
      expect([loopback.code, loopback.data, loopback.message]).toEqual(['blocked_url', { plugin: 'eden', tool: 'eden_save_links_to_board', pointer: '/urls', guard: 'public_http_url_array', index: 1 }, expect.stringContaining('nothing was sent to eden')]);
      expect(loopback.hint).toContain('public http(s) URLs');
      const calls = fake.calls.length;
      await fc.assert(fc.asyncProperty(fc.array(publicUrl, { maxLength: 5 }), refusedUrl, fc.nat(), async (good, bad, at) => {
        const urls: string[] = [...good];
        urls.splice(at % (good.length + 1), 0, bad);
        const refused = await run('eden_save_links_to_board', { boardId: 'b1', urls });
        expect(refused.code, bad).toBe('blocked_url');
        expect(fake.calls.length).toBe(calls);
      }), { numRuns: 150 });
      const tooMany = await run('eden_save_links_to_board', { boardId: 'b1', urls: Array.from({ length: 21 }, (_, i) => `https://example.com/${i}`) });
      expect([tooMany.code, tooMany.message, fake.calls.length]).toEqual(['invalid_arguments', expect.stringContaining('has 21 items (at most 20)'), calls]);
    } finally {
      await rail.close();
    }
  });

  it('printable ASCII strings pass; a control character, DEL or non-ASCII in any item, or a 6th item, is refused with nothing sent', async () => {
    const { rail, run } = await readyRail();
    try {
      await fc.assert(fc.asyncProperty(fc.array(visibleAscii(40), { maxLength: 5 }), async (urls) => {
        expect((await run('eden_save_posts_to_board', { boardId: 'b1', urls })).data).toMatchObject({ ok: true });
        expect(lastArgs().urls).toEqual(urls);
      }), { numRuns: 15 });
      const calls = fake.calls.length;
      await fc.assert(fc.asyncProperty(fc.array(visibleAscii(), { maxLength: 4 }), withOneInvisible, async (good, bad) => {
        const refused = await run('eden_save_posts_to_board', { boardId: 'b1', urls: [...good, bad] });
        expect([refused.code, refused.data?.index]).toEqual(['invalid_arguments', good.length]);
        expect(fake.calls.length).toBe(calls);
      }), { numRuns: 150 });
      const six = await run('eden_save_posts_to_board', { boardId: 'b1', urls: ['a', 'b', 'c', 'd', 'e', 'f'] });
      const notArray = await run('eden_save_posts_to_board', { boardId: 'b1', urls: 'https://example.com' });
      expect([six.code, notArray.code, notArray.message, fake.calls.length]).toEqual(['invalid_arguments', 'invalid_arguments', expect.stringContaining('/urls that is not an array'), calls]);
    } finally {
      await rail.close();
    }
  });
});

describe('startup Retry-After', () => {
  const busyInitialize = (times: number, headers: Record<string, string>) => {
    let left = times;
    fake.intercept = (message) => (message.method === 'initialize' && left > 0 ? (left -= 1, { status: 429, headers: { 'content-type': 'application/json', ...headers }, body: '{}' }) : undefined);
  };

  it('a 429 at startup waits the Retry-After (longer than the backoff) before the next attempt, then connects; busy to the last attempt ends remote_busy', async () => {
    const { rail } = hostedRailTo(fake, createTestPolicy(), { 'mcp.eden.so': fake.server.port });
    busyInitialize(1, { 'retry-after': '1' });
    try {
      rail.apply({ eden: { ...capture, token: EDEN_READ_TOKEN, choice: { ...capture.choice, profile: 'retrieval' } } });
      await waitFor(() => rail.state('eden')?.last_code === 'remote_busy', 10_000, 'the busy first attempt');
      expect(rail.state('eden')).toMatchObject({ status: 'connecting', attempts: 1, next_attempt_in_ms: 1000 });
      await rail.settled();
      expect(rail.state('eden')).toMatchObject({ status: 'ready', attempts: 2, next_attempt_in_ms: null });
    } finally {
      fake.intercept = null;
      await rail.close();
    }
    // Busy at every attempt (Retry-After 0, so the backoff rules): the third ends remote_busy, naming the attempts.
    const second = hostedRailTo(fake, createTestPolicy(), { 'mcp.eden.so': fake.server.port });
    busyInitialize(3, { 'retry-after': '0' });
    try {
      second.rail.apply({ eden: capture });
      await second.rail.settled();
      expect(second.rail.state('eden')).toMatchObject({ status: 'remote_busy', attempts: 3, retry_after_ms: 0, last_error: expect.stringContaining('after 3 attempts, so it stopped trying') });
    } finally {
      fake.intercept = null;
      await second.rail.close();
    }
  });

  it('a Retry-After past the 60 s startup window (or the 60 s default without one) stops at once as remote_busy, showing the wait and its end', async () => {
    for (const [headers, seconds] of [[{ 'retry-after': '120' }, 120], [{}, 60]] as const) {
      const { registry, rail } = hostedRailTo(fake, createTestPolicy(), { 'mcp.eden.so': fake.server.port });
      busyInitialize(3, headers);
      const initializes = fake.initializes;
      try {
        rail.apply({ eden: capture });
        await rail.settled();
        const state = rail.state('eden')!;
        expect(state).toMatchObject({ status: 'remote_busy', attempts: 1, retry_after_ms: seconds * 1000, tools: [] });
        expect(state.retry_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(state.last_error).toContain(`asked Fermix to wait ${seconds} s (until ${state.retry_at!.slice(11, 19)} UTC), past the 60 s startup window`);
        expect(state.last_error).toContain('fermix plugins enable eden');
        expect([fake.initializes - initializes, registry.list()]).toEqual([1, []]);
      } finally {
        fake.intercept = null;
        await rail.close();
      }
    }
  });
});
