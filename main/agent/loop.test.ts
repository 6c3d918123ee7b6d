// The agent loop end to end: the real AI SDK provider clients talk to the scripted model server
// (real HTTP, real OpenAI / Anthropic streaming wire formats); tools run through the real invoker.
import { describe, expect, it } from 'vitest';
import { useAgentTestContext } from './test-context.js';
import { lastMessageIsToolResult, startModelServer, messagesOf, toolNamesOf, toolResultsOf, toolRoundTrip } from '../../test/fixtures/model-server/index.js';
import { createHarness, providerConfig, testTool, waitUntil } from './test-harness.js';

const ctx = useAgentTestContext();

const completions = () => ctx.server.requests.filter((r) => r.vendor !== 'other');

async function start(type: 'openai' | 'anthropic' | 'openai-compatible' = 'openai', extra: Parameters<typeof createHarness>[0]['capabilities'] = () => []) {
  ctx.harness = await createHarness({
    config: providerConfig([{ name: 'main', type, baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: type === 'openai-compatible' ? undefined : 'TEST_KEY' }]),
    capabilities: () => [testTool('read_note', { run: async (args) => ({ text: `note ${String(args.text)}: buy milk` }) }), ...extra()],
    secrets: { keyring: () => null, env: (name) => (name === 'TEST_KEY' ? 'sk-test' : undefined) },
  });
  return ctx.harness;
}

describe.each(['openai', 'anthropic', 'openai-compatible'] as const)('a multi-step tool turn over %s', (type) => {
  it('streams, dispatches the call through the invoker, appends the result and answers', async () => {
    const h = await start(type);
    ctx.server.setScript(toolRoundTrip([{ name: 'read_note', arguments: { text: 'groceries' } }], (req) => `Your note says: ${toolResultsOf(req)[0].content}`, { usage: { inputTokens: 100, outputTokens: 20 } }));
    const before = completions().length;
    const sent = h.agent.send({ message: 'What is on my note?' });
    const result = await sent.done;

    expect(result.status).toBe('completed');
    expect(result.text).toBe('Your note says: note groceries: buy milk');
    expect(result.iterations).toBe(2);
    expect(result.usage).toEqual({ input_tokens: 200, output_tokens: 40 });
    expect(result.provider).toBe('main');

    const requests = completions().slice(before);
    expect(requests).toHaveLength(2);
    expect(toolNamesOf(requests[0])).toContain('read_note');
    expect(toolResultsOf(requests[1])[0].content).toBe('note groceries: buy milk');
    // The audit saw one allowed call from the chat origin, under the conversation.
    expect(h.audit.filter((r) => r.capability === 'read_note')).toMatchObject([{ decision: 'allow', origin: 'chat', conversation_id: sent.conversation_id }]);
    // Events: queued → started → tool call → tool result → deltas → finished, in order.
    const types = h.events.filter((e) => e.stream === sent.conversation_id).map((e) => e.type);
    expect(types[0]).toBe('chat.turn_queued');
    expect(types.indexOf('chat.tool_call')).toBeLessThan(types.indexOf('chat.tool_result'));
    expect(types.lastIndexOf('chat.delta')).toBeGreaterThan(types.indexOf('chat.tool_result'));
    expect(types.at(-1)).toBe('chat.turn_finished');
    const deltas = h.eventsOf('chat.delta', sent.conversation_id).map((d) => d.text).join('');
    expect(deltas).toBe(result.text);
    // Persisted: user, assistant(tool call), tool, assistant.
    expect(h.agent.store.history(sent.conversation_id).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(h.agent.store.toolCalls(sent.turn_id)).toMatchObject([{ name: 'read_note', status: 'ok' }]);
  });
});

describe('provider policy', () => {
  it('falls back to the second provider on the first call after a bounded retry on the primary', async () => {
    const secondary = await startModelServer({ script: [{ text: 'Answer from the fallback.' }] });
    try {
      ctx.harness = await createHarness({
        config: providerConfig([
          { name: 'first', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' },
          { name: 'second', type: 'anthropic', baseUrl: secondary.baseUrlOpenAI, keyEnv: 'K' },
        ]),
        capabilities: () => [],
        secrets: { keyring: () => null, env: () => 'sk-test' },
      });
      ctx.server.setScript([{ error: 500 }, { error: 503 }]);
      const before = completions().length;
      const result = await ctx.harness.agent.send({ message: 'hello' }).done;
      expect(result.status).toBe('completed');
      expect(result.text).toBe('Answer from the fallback.');
      expect(result.provider).toBe('second');
      expect(completions().length - before).toBe(2); // one retry on the primary, then fallback
      expect(secondary.requests.filter((r) => r.vendor === 'anthropic')).toHaveLength(1);
      expect(ctx.harness.eventsOf('chat.warning').map((w) => w.code)).toContain('provider_fallback');
      expect(ctx.harness.agent.store.modelCalls(result.turn_id).map((c) => [c.provider, c.outcome])).toEqual([['first', 'error'], ['first', 'error'], ['second', 'ok']]);
    } finally {
      await secondary.close();
    }
  });

  it('does not fall back on a permanent error (bad key), and says how to fix it', async () => {
    const h = await start('openai');
    ctx.server.setScript([{ error: 401 }]);
    const result = await h.agent.send({ message: 'hello' }).done;
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('provider_auth');
    expect(result.error?.hint).toContain('fermix providers set-key main --stdin');
  });

  it('retries a 429 on the same provider and then answers', async () => {
    const h = await start('openai');
    ctx.server.setScript([{ error: 429 }, { text: 'after the rate limit' }]);
    const result = await h.agent.send({ message: 'hello' }).done;
    expect(result).toMatchObject({ status: 'completed', text: 'after the rate limit' });
  });

  it('a turn without any provider fails with the exact CLI command and UI screen, offering a local Ollama', async () => {
    ctx.harness = await createHarness({ config: '', capabilities: () => [], overrides: { ollamaOrigin: ctx.server.url } });
    const result = await ctx.harness.agent.send({ message: 'hello' }).done;
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('no_provider');
    expect(result.error?.hint).toContain('Settings → Models');
    expect(result.error?.hint).toContain('fermix providers add NAME --type openai|anthropic|openai-compatible --model MODEL');
    // The scripted server answers /api/tags like Ollama does.
    expect(result.error?.message).toContain(`A local Ollama answers at ${ctx.server.url}/v1 with fermix-test-model`);
  });
});

describe('ending a turn', () => {
  it('ends the turn at the 5th identical call in a row, warning from the 3rd', async () => {
    let runs = 0;
    const h = await start('openai', () => [testTool('check_status', { run: async () => ({ text: `status #${(runs += 1)}` }) })]);
    ctx.server.setScript(() => ({ toolCalls: [{ name: 'check_status', arguments: { target: 'build' } }] }));
    const result = await h.agent.send({ message: 'is it done?' }).done;
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('loop_detected');
    expect(runs).toBe(4);
    expect(result.iterations).toBe(5);
    const results = h.eventsOf('chat.tool_result').filter((r) => r.turn_id === result.turn_id);
    expect(results.map((r) => r.preview.includes('[loop warning]'))).toEqual([false, false, true, true]);
    // The 5th call has a result too, so the history stays valid for the next turn.
    expect(h.agent.store.history(result.conversation_id).filter((m) => m.role === 'tool')).toHaveLength(5);
  });

  it('stops mid-stream: the partial answer is kept and the turn is stopped', async () => {
    const h = await start('openai');
    ctx.server.setScript([{ text: 'one two three four five six seven eight nine ten', chunks: 10, delayMs: 150 }]);
    const sent = h.agent.send({ message: 'count slowly' });
    await waitUntil(() => h.eventsOf('chat.delta', sent.conversation_id).length > 0);
    expect(h.agent.stop(sent.conversation_id)).toBe(1);
    const result = await sent.done;
    expect(result.status).toBe('stopped');
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.text.length).toBeLessThan('one two three four five six seven eight nine ten'.length);
    expect(h.agent.store.history(sent.conversation_id).at(-1)).toMatchObject({ role: 'assistant', partial: true });
    await waitUntil(() => completions().at(-1)!.aborted);
  });

  it('stop aborts the running tool and records a cancelled result', async () => {
    let aborted = false;
    const h = await start('openai', () => [testTool('slow_job', {
      run: (_args, context) => new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          aborted = true;
          resolve({ text: 'aborted' });
        });
      }),
    })]);
    ctx.server.setScript([{ toolCalls: [{ name: 'slow_job', arguments: {} }, { name: 'read_note', arguments: { text: 'x' } }] }]);
    const sent = h.agent.send({ message: 'run the job' });
    await waitUntil(() => h.eventsOf('chat.tool_call', sent.conversation_id).length > 0);
    h.agent.stop(sent.conversation_id);
    const result = await sent.done;
    expect(result.status).toBe('stopped');
    expect(aborted).toBe(true);
    const tools = h.agent.store.history(sent.conversation_id).filter((m) => m.role === 'tool');
    expect(tools.map((m) => (m as { text: string }).text)).toEqual([expect.stringContaining('cancelled'), expect.stringContaining('cancelled')]);
  });

  it('an empty completion is a failure that says to try again', async () => {
    const h = await start('anthropic');
    ctx.server.setScript([{ empty: true }]);
    const result = await h.agent.send({ message: 'hello' }).done;
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'empty_completion' });
    expect(result.error?.hint).toMatch(/try again/i);
  });

  it('a cut stream keeps the partial answer and records why it stopped', async () => {
    const h = await start('openai');
    ctx.server.setScript([{ cutAfterChunks: 5 }]);
    const result = await h.agent.send({ message: 'hello' }).done;
    expect(result.status).toBe('partial');
    expect(result.text.length).toBeGreaterThan(0);
    expect(result.stop_reason).toBe('stream_error: provider_stream_cut');
    expect(h.agent.store.history(result.conversation_id).at(-1)).toMatchObject({ role: 'assistant', partial: true });
  });

  it('stops at the iteration cap', async () => {
    ctx.harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [testTool('read_note')],
      secrets: { keyring: () => null, env: () => 'k' },
      overrides: { maxIterations: 3 },
    });
    let n = 0;
    ctx.server.setScript(() => ({ toolCalls: [{ name: 'read_note', arguments: { text: `page ${(n += 1)}` } }] }));
    const result = await ctx.harness.agent.send({ message: 'read everything' }).done;
    expect(result).toMatchObject({ status: 'failed', iterations: 3, stop_reason: 'iteration_limit' });
  });
});

describe('images in tool results', () => {
  const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const screenshot = () => testTool('take_screenshot', { run: async () => ({ text: 'Screenshot taken.', images: [{ mimeType: 'image/png', base64: PIXEL }] }) });

  it.each([
    ['anthropic', (req: any) => JSON.stringify(req.body.messages).includes(PIXEL) && req.body.messages.some((m: any) => Array.isArray(m.content) && m.content.some((b: any) => b.type === 'tool_result' && JSON.stringify(b.content).includes('"type":"image"')))],
    ['openai', (req: any) => req.body.messages.at(-1).role === 'user' && JSON.stringify(req.body.messages.at(-1).content).includes(`data:image/png;base64,${PIXEL}`)],
    ['openai-compatible', (req: any) => !JSON.stringify(req.body.messages).includes(PIXEL) && JSON.stringify(req.body.messages).includes('image(s) omitted: this model does not accept images')],
  ] as const)('are passed to %s the way it accepts them', async (type, check) => {
    const h = await start(type, () => [screenshot()]);
    // For chat-completions the images follow the results in a user message, so "has a result" is the test.
    ctx.server.setScript((req) => (toolResultsOf(req).length > 0 ? { text: 'I see one pixel.' } : { toolCalls: [{ name: 'take_screenshot', arguments: {} }] }));
    const before = completions().length;
    const result = await h.agent.send({ message: 'look at the screen' }).done;
    expect(result.error).toBeNull();
    expect(result.status).toBe('completed');
    const second = completions().slice(before)[1];
    expect(check(second)).toBe(true);
    expect(h.eventsOf('chat.tool_result').at(-1).images).toEqual([{ mime_type: 'image/png', base64: PIXEL }]);
  });
});

describe('queueing and history', () => {
  it('runs turns of one conversation in order and different conversations concurrently', async () => {
    const h = await start('openai');
    let inFlight = 0;
    let maxInFlight = 0;
    ctx.server.setScript(async (req) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 150));
      inFlight -= 1;
      const said = messagesOf(req).filter((m: any) => m.role === 'user').map((m: any) => (typeof m.content === 'string' ? m.content : m.content[0].text));
      return { text: `seen: ${said.join(' | ')}` };
    });
    const a1 = h.agent.send({ message: 'first' });
    const a2 = h.agent.send({ message: 'second', conversation_id: a1.conversation_id });
    const b1 = h.agent.send({ message: 'other' });
    expect(a2.position).toBe(1);
    const [r1, r2, r3] = await Promise.all([a1.done, a2.done, b1.done]);
    expect(r1.text).toBe('seen: first');
    expect(r2.text).toBe('seen: first | second');
    expect(r3.text).toBe('seen: other');
    expect(maxInFlight).toBe(2); // a1 and b1 together; a2 waited for a1
  });

  it('checks the history before every request: a call left without a result gets one', async () => {
    const h = await start('openai');
    ctx.server.setScript([{ text: 'fine' }]);
    const first = await h.agent.send({ message: 'hello' }).done;
    // A daemon killed mid-tool leaves an assistant call without its result.
    h.agent.store.appendMessage(first.conversation_id, null, { role: 'assistant', text: '', toolCalls: [{ id: 'call_lost', name: 'read_note', args: {} }] });
    ctx.server.setScript((req) => ({ text: lastMessageIsToolResult(req) ? 'bad order' : `results: ${toolResultsOf(req).map((r) => r.id).join(',')}` }));
    const second = await h.agent.send({ message: 'again', conversation_id: first.conversation_id }).done;
    expect(second.text).toBe('results: call_lost');
    expect(h.eventsOf('chat.warning').map((w) => w.code)).toContain('history_repaired');
  });

  it('a denied call returns a tool result that says what was denied and why', async () => {
    ctx.harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [testTool('delete_note', { policy_class: 'read_write' })],
      rules: [{ permission: 'delete_note', action: 'deny', source: 'config' }],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    ctx.server.setScript(toolRoundTrip([{ name: 'delete_note', arguments: { text: 'all' } }], (req) => toolResultsOf(req)[0].content));
    const result = await ctx.harness.agent.send({ message: 'delete it' }).done;
    expect(result.text).toContain('Error [permission_denied]: delete_note was not allowed');
    expect(result.text).toContain('config: delete_note');
    expect(ctx.harness.audit.filter((r) => r.capability === 'delete_note')).toMatchObject([{ decision: 'deny' }]);
  });
});
