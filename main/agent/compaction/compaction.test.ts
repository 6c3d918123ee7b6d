// Compaction end to end: the real AI SDK clients against the scripted model server, which counts the
// context of every request it receives (o200k tokens) and refuses what passes its window the way
// each vendor does. No part of the agent is replaced.
import { afterEach, describe, expect, it } from 'vitest';
import { useAgentTestContext } from '../test-context.js';
import { toolResultsOf, type RecordedRequest, type Turn } from '../../../test/fixtures/model-server/index.js';
import { createDispatcher } from '../../api/dispatcher.js';
import { createChatHandlers } from '../chat-handlers.js';
import { createHarness, providerConfig, testTool } from '../test-harness.js';
import { COMPACTION_PROMPT_MARKER } from './summarize.js';
import { SUMMARY_HEADER } from './window.js';

const ctx = useAgentTestContext();
afterEach(() => ctx.server.setContextWindow(undefined));

const systemOf = (req: RecordedRequest): string => {
  const system = req.body?.system ?? req.body?.messages?.find((m: any) => m.role === 'system')?.content;
  return typeof system === 'string' ? system : JSON.stringify(system ?? '');
};
const isCompaction = (req: RecordedRequest) => systemOf(req).startsWith(COMPACTION_PROMPT_MARKER);
const completions = () => ctx.server.requests.filter((r) => r.vendor !== 'other');
const sentText = (req: RecordedRequest) => JSON.stringify(req.body?.messages ?? []);

/** Answers summaries for compaction calls and `answer(req)` for the conversation itself. */
function script(answer: (req: RecordedRequest) => Turn) {
  let summaries = 0;
  ctx.server.setScript((req) => (isCompaction(req) ? { text: `Summary ${++summaries}: the person asked about Lisbon trips; facts kept.` } : answer(req)));
}

async function start(type: 'openai' | 'anthropic', contextWindow: number, extra = '', tools = () => [testTool('read_log', { run: async (args) => ({ text: `LOG-${String(args.text)} ${'x'.repeat(3_000)}` }) })]) {
  ctx.harness = await createHarness({
    config: `${extra}\n${providerConfig([{ name: 'main', type, baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'TEST_KEY' }])}context_window = ${contextWindow}\n`,
    capabilities: tools,
    secrets: { keyring: () => null, env: (name) => (name === 'TEST_KEY' ? 'sk-test' : undefined) },
  });
  return ctx.harness;
}

const paragraph = (n: number) => `Message ${n}: ${'I am planning a long trip to Lisbon and want to know about trams, food and museums. '.repeat(18)}`;

describe.each(['openai', 'anthropic'] as const)('over %s', (type) => {
  it('a conversation much longer than the window keeps working, and no request ever passes the window', async () => {
    const window = 8_000;
    ctx.server.setContextWindow(window);
    const h = await start(type, window);
    script(() => ({ text: `Answer: ${'Take tram 28 early in the morning and eat pastéis de nata in Belém. '.repeat(14)}` }));
    let conversation: string | undefined;
    for (let turn = 1; turn <= 14; turn += 1) {
      const result = await h.agent.send({ message: paragraph(turn), conversation_id: conversation }).done;
      expect(result.status, JSON.stringify(result.error)).toBe('completed');
      conversation = result.conversation_id;
    }
    const all = completions();
    expect(all.filter((r) => r.overflowed)).toEqual([]);
    expect(Math.max(...all.map((r) => r.contextTokens ?? 0))).toBeLessThanOrEqual(window);
    // Far more was said than fits: the stored conversation is whole, the model saw a summary instead.
    const stored = h.agent.store.history(conversation!);
    expect(stored).toHaveLength(28);
    expect(all.some(isCompaction)).toBe(true);
    const last = all.filter((r) => !isCompaction(r)).at(-1)!;
    expect(sentText(last)).toContain(SUMMARY_HEADER.slice(0, 40));
    expect(sentText(last)).toContain('Message 14:');
    expect(sentText(last)).not.toContain('Message 1:');
    expect(h.agent.compactions.latest(conversation!)).toMatchObject({ reason: 'auto', provider: 'main' });
  });
});

describe('compaction', () => {
  it('keeps the last 3 tool results raw; older ones are shortened', async () => {
    const h = await start('openai', 200_000);
    let step = 0;
    let prefix = 'A';
    script(() => (step >= 5 ? { text: 'Read them all.' } : { toolCalls: [{ name: 'read_log', arguments: { text: `${prefix}${++step}` } }] }));
    const first = await h.agent.send({ message: 'Earlier question about the logs.' }).done;
    expect(first.status).toBe('completed');
    // A summary exists from here on: the next turn's request is summary + tail.
    expect(await h.agent.compact(first.conversation_id)).toMatchObject({ reason: 'manual' });
    step = 0;
    prefix = 'B';
    const second = await h.agent.send({ message: 'Read logs 1 to 5 again.', conversation_id: first.conversation_id }).done;
    expect(second.status).toBe('completed');
    const last = completions().filter((r) => !isCompaction(r)).at(-1)!;
    const results = toolResultsOf(last).filter((r) => r.content.startsWith('LOG-B'));
    expect(results).toHaveLength(5);
    const raw = results.filter((r) => !r.content.includes('more characters left out'));
    expect(raw.map((r) => r.content.slice(0, 6))).toEqual(['LOG-B3', 'LOG-B4', 'LOG-B5']);
    for (const each of raw) expect(each.content.length).toBeGreaterThan(3_000);
    for (const each of results.slice(0, 2)) expect(each.content.length).toBeLessThan(1_500);
  });

  it('a context-overflow error from the vendor → re-compress → the same request succeeds', async () => {
    // The product believes the window is large; the server's real one is 3,000 tokens and it says so.
    const h = await start('anthropic', 200_000);
    script(() => ({ text: `Noted. ${'We can continue with the itinerary. '.repeat(20)}` }));
    let conversation: string | undefined;
    for (let turn = 1; turn <= 6; turn += 1) conversation = (await h.agent.send({ message: paragraph(turn), conversation_id: conversation }).done).conversation_id;
    ctx.server.setContextWindow(3_000);
    const before = completions().length;
    const result = await h.agent.send({ message: 'And what about Sintra?', conversation_id: conversation }).done;
    expect(result.status, JSON.stringify(result.error)).toBe('completed');
    const requests = completions().slice(before);
    expect(requests[0].overflowed).toBe(true);
    const retried = requests.filter((r) => !isCompaction(r)).at(-1)!;
    expect(retried.overflowed).toBe(false);
    expect(retried.contextTokens).toBeLessThanOrEqual(3_000);
    expect(sentText(retried)).toContain('And what about Sintra?');
    expect(h.agent.compactions.latest(conversation!)).toMatchObject({ reason: 'overflow' });
    expect(h.eventsOf('chat.warning', conversation).map((w) => w.code)).toContain('context_overflow');
  });

  it('after 3 re-compressions that do not help, the turn fails naming /compact and the window', async () => {
    // 100 tokens: not even the system prompt and the tool fit, so nothing compaction does can help.
    const h = await start('openai', 50_000);
    ctx.server.setContextWindow(100);
    script(() => ({ text: 'never reached' }));
    const before = completions().length;
    const result = await h.agent.send({ message: 'This never fits.' }).done;
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'context_overflow' });
    expect(result.error!.message).toContain('context window of 100 tokens');
    expect(result.error!.message).toContain('3 times');
    expect(result.error!.hint).toContain('/compact');
    // The first request and 3 re-issues, each refused.
    expect(completions().slice(before).filter((r) => r.overflowed && !isCompaction(r))).toHaveLength(4);
  });

  it('enabled = false turns auto-compaction off; /compact still works', async () => {
    const window = 8_000;
    const h = await start('openai', window, '[fermix_core.compaction]\nenabled = false\n');
    script(() => ({ text: 'Short answer.' }));
    let conversation: string | undefined;
    for (let turn = 1; turn <= 10; turn += 1) conversation = (await h.agent.send({ message: paragraph(turn), conversation_id: conversation }).done).conversation_id;
    expect(h.agent.compactions.latest(conversation!)).toBeNull();
    const row = await h.agent.compact(conversation!);
    expect(row).toMatchObject({ reason: 'manual', conversation_id: conversation });
    expect(row!.tokens_after).toBeLessThan(row!.tokens_before);
  });

  it('chat.compact summarizes now; the next request carries the summary, not the old messages', async () => {
    const h = await start('openai', 200_000);
    script(() => ({ text: 'Fine.' }));
    let conversation: string | undefined;
    for (let turn = 1; turn <= 4; turn += 1) conversation = (await h.agent.send({ message: paragraph(turn), conversation_id: conversation }).done).conversation_id;
    const dispatcher = createDispatcher(createChatHandlers(h.agent, { events: h.bus }));
    const call = (input: unknown) => dispatcher.dispatch('chat.compact', input, { transport: 'in-process', trust: 'operator' }) as Promise<any>;
    const answer = await call({ conversation_id: conversation });
    expect(answer.result).toMatchObject({ compacted: true, compaction: { reason: 'manual', summary: expect.stringContaining('Summary') } });
    await h.agent.send({ message: 'Next question.', conversation_id: conversation }).done;
    const last = completions().filter((r) => !isCompaction(r)).at(-1)!;
    expect(sentText(last)).toContain(SUMMARY_HEADER.slice(0, 40));
    expect(sentText(last)).not.toContain('Message 1:');
    expect(await call({ conversation_id: 'missing' })).toMatchObject({ ok: false, error: { code: 'conversation_not_found' } });
  });
});
