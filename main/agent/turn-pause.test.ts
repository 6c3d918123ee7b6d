// Pause / resume of a running turn, through the real agent service, invoker and the scripted model
// server (real HTTP, OpenAI streaming wire format): the step under way finishes, nothing further reaches
// the model or the tools while paused, resume goes on, and /stop still ends a paused turn.
import { describe, expect, it } from 'vitest';
import { useAgentTestContext } from './test-context.js';
import { toolResultsOf, toolRoundTrip } from '../../test/fixtures/model-server/index.js';
import { createHarness, providerConfig, testTool, waitUntil } from './test-harness.js';
import { createTurnHold } from './turn-hold.js';

const ctx = useAgentTestContext();

const completions = () => ctx.server.requests.filter((r) => r.vendor !== 'other');

/** A tool whose call finishes when the test says so, recording every call it received. */
function gatedTool() {
  const calls: string[] = [];
  let open: (() => void) | null = null;
  const tool = testTool('slow_step', {
    run: async (args) => {
      calls.push(String(args.text));
      if (String(args.text) === 'first') await new Promise<void>((resolve) => (open = resolve));
      return { text: `step ${String(args.text)} done` };
    },
  });
  return { tool, calls, finishFirst: () => open?.() };
}

async function start(extra: ReturnType<typeof gatedTool>) {
  ctx.harness = await createHarness({
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'TEST_KEY' }]),
    capabilities: () => [extra.tool],
    secrets: { keyring: () => null, env: (name) => (name === 'TEST_KEY' ? 'sk-test' : undefined) },
  });
  return ctx.harness;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('pausing a running turn', () => {
  it('lets the running tool finish, holds the next call and the next model request, and goes on after resume', async () => {
    const gate = gatedTool();
    const h = await start(gate);
    ctx.server.setScript(toolRoundTrip(
      [{ name: 'slow_step', arguments: { text: 'first' } }, { name: 'slow_step', arguments: { text: 'second' } }],
      (req) => `Both done: ${toolResultsOf(req).map((r) => r.content).join(' / ')}`,
    ));
    const sent = h.agent.send({ message: 'run two steps' });
    await waitUntil(() => gate.calls.length === 1);

    const paused = h.agent.pauseTurn(sent.conversation_id);
    expect(paused).toEqual({ turn_id: sent.turn_id, state: 'pausing', changed: true });
    expect(h.agent.pauseTurn(sent.conversation_id)).toMatchObject({ changed: false });
    expect(h.agent.turn(sent.turn_id).hold).toBe('pausing');

    // The step under way finishes; then the turn holds before the second call.
    gate.finishFirst();
    await waitUntil(() => h.agent.holdState(sent.conversation_id) === 'paused');
    const requestsWhilePaused = completions().length;
    await sleep(300);
    expect(gate.calls).toEqual(['first']);
    expect(completions().length).toBe(requestsWhilePaused);
    expect(h.agent.turn(sent.turn_id)).toMatchObject({ status: 'running', hold: 'paused' });
    expect(h.agent.store.toolCalls(sent.turn_id).map((call) => call.status)).toEqual(['ok']);

    expect(h.agent.resumeTurn(sent.conversation_id)).toEqual({ turn_id: sent.turn_id, state: 'running', changed: true });
    const result = await sent.done;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Both done: step first done / step second done');
    expect(gate.calls).toEqual(['first', 'second']);
    expect(result.hold).toBeNull();

    // The window learns every state change on the conversation stream, in order.
    expect(h.eventsOf('chat.turn_hold', sent.conversation_id).map((e) => e.state)).toEqual(['pausing', 'paused', 'running']);
    // Nothing left to run: the pause has lapsed, and pausing now reports that nothing runs.
    expect(h.agent.holdState(sent.conversation_id)).toBe('running');
    expect(h.agent.pauseTurn(sent.conversation_id)).toEqual({ turn_id: null, state: 'running', changed: false });
  });

  it('a pause during streaming lets the reply finish, then holds before the model is called again', async () => {
    const gate = gatedTool();
    const h = await start(gate);
    ctx.server.setScript([
      { text: 'Let me look.', toolCalls: [{ name: 'slow_step', arguments: { text: 'quick' } }], delayMs: 80 },
      { text: 'All done.' },
    ]);
    const sent = h.agent.send({ message: 'go' });
    await waitUntil(() => h.eventsOf('chat.delta', sent.conversation_id).length > 0);
    h.agent.pauseTurn(sent.conversation_id);
    await waitUntil(() => h.agent.holdState(sent.conversation_id) === 'paused');
    // The streamed reply was not cut: its text and its tool call are in the history, the call not yet run.
    expect(h.agent.store.history(sent.conversation_id).at(-1)).toMatchObject({ role: 'assistant', text: 'Let me look.' });
    expect(gate.calls).toEqual([]);
    const before = completions().length;
    await sleep(250);
    expect(completions().length).toBe(before);
    h.agent.resumeTurn(sent.conversation_id);
    const result = await sent.done;
    expect(result).toMatchObject({ status: 'completed', text: 'All done.' });
    expect(gate.calls).toEqual(['quick']);
  });

  it('/stop ends a turn paused before its first model request, which never reaches the model', async () => {
    const gate = gatedTool();
    const h = await start(gate);
    ctx.server.setScript([{ text: 'never asked' }]);
    // The pause is taken as soon as the turn is queued.
    const before = completions().length;
    const sent = h.agent.send({ message: 'two steps' });
    expect(h.agent.pauseTurn(sent.conversation_id).turn_id).toBe(sent.turn_id);
    await waitUntil(() => h.agent.holdState(sent.conversation_id) === 'paused');
    // Held before its first model request.
    await sleep(150);
    expect(completions().length).toBe(before);
    expect(h.agent.stop(sent.conversation_id)).toBe(1);
    const result = await sent.done;
    expect(result.status).toBe('stopped');
    expect(result.iterations).toBe(0);
    expect(completions().length).toBe(before);
    expect(gate.calls).toEqual([]);
  });

  it('a message queued behind a paused turn waits for resume too', async () => {
    const gate = gatedTool();
    const h = await start(gate);
    ctx.server.setScript([{ toolCalls: [{ name: 'slow_step', arguments: { text: 'first' } }] }, { text: 'first answer' }, { text: 'second answer' }]);
    const one = h.agent.send({ message: 'first' });
    await waitUntil(() => gate.calls.length === 1);
    const two = h.agent.send({ message: 'second', conversation_id: one.conversation_id });
    h.agent.pauseTurn(one.conversation_id);
    gate.finishFirst();
    await waitUntil(() => h.agent.holdState(one.conversation_id) === 'paused');
    await sleep(200);
    expect(h.agent.turn(two.turn_id)).toMatchObject({ status: 'queued', hold: 'paused' });
    h.agent.resumeTurn(one.conversation_id);
    expect((await one.done).text).toBe('first answer');
    expect((await two.done).text).toBe('second answer');
  });
});

describe('the hold switch', () => {
  it('reports pausing until a checkpoint waits, and an abort wakes a held checkpoint', async () => {
    const states: string[] = [];
    const hold = createTurnHold((state) => states.push(state));
    const controller = new AbortController();
    await hold.checkpoint(controller.signal); // not paused: returns at once
    expect(hold.resume()).toBe(false);
    expect(hold.pause()).toBe(true);
    expect(hold.state()).toBe('pausing');
    let woke = false;
    const waiting = hold.checkpoint(controller.signal).then(() => (woke = true));
    expect(hold.state()).toBe('paused');
    await sleep(20);
    expect(woke).toBe(false);
    controller.abort();
    await waiting;
    expect(woke).toBe(true);
    // A checkpoint on an aborted signal never waits, so shutdown and /stop are never held up.
    await hold.checkpoint(controller.signal);
    expect(states).toEqual(['pausing', 'paused']);
  });
});
