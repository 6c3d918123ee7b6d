// subagents through real turns: the parent calls the real `subagents` built-in, every worker is a real
// agent-loop run against the scripted model server (OpenAI wire format), and the results, policy
// narrowing, unattended approvals, usage, /stop, pause and the live card events are checked end to end.
import { describe, expect, it } from 'vitest';
import { useAgentTestContext } from '../main/agent/test-context.js';
import { messagesOf, toolNamesOf, toolResultsOf, type RecordedRequest, type Turn } from './fixtures/model-server/index.js';
import { createHarness, providerConfig, testTool, waitUntil, type Harness } from '../main/agent/test-harness.js';
import { subagents } from '../main/tools/subagents.js';
import { workerStopError } from '../main/agent/subagents/worker.js';
import type { ExecutionContext } from '../main/core/capabilities/capability.js';
import type { Rule } from '../main/core/capabilities/index.js';

const ctx = useAgentTestContext();

const calls: { name: string; origin: string; trust: string }[] = [];
let releaseProbe: (() => void) | null = null;
let probeStarted = 0;
const tools = () => [
  subagents,
  testTool('read_note', { run: async (args, ctx) => (calls.push({ name: 'read_note', origin: ctx.origin, trust: ctx.trust }), { text: `note for ${JSON.stringify(args)}` }) }),
  testTool('write_note', { policy_class: 'read_write', run: async (_args, ctx) => (calls.push({ name: 'write_note', origin: ctx.origin, trust: ctx.trust }), { text: 'written' }) }),
  testTool('needs_ok', { run: async (_args, ctx) => (calls.push({ name: 'needs_ok', origin: ctx.origin, trust: ctx.trust }), { text: 'approved work' }) }),
  // Holds until released by the test or aborted (timeout, /stop): a worker that is visibly busy.
  testTool('slow_probe', {
    policy_class: 'network', group: 'net', metadata: { category: 'web' },
    run: (_args, ctx) => new Promise((resolve, reject) => {
      probeStarted += 1;
      releaseProbe = () => resolve({ text: 'probe done' });
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
    }),
  }),
];

const isWorker = (req: RecordedRequest) => String(messagesOf(req)[0]?.content ?? '').includes('## You are a subagent');
const workerTask = (req: RecordedRequest) => /^Task (\S+):/.exec(String(messagesOf(req).find((m) => m.role === 'user')?.content ?? ''))?.[1] ?? '';
const completions = () => ctx.server.requests.filter((r) => r.vendor === 'openai');

/** The parent delegates `args` once, then answers with the tool result it got. */
function parentScript(args: Record<string, unknown>, worker: (req: RecordedRequest, task: string) => Turn | Promise<Turn>) {
  ctx.server.setScript((req) => {
    if (isWorker(req)) return worker(req, workerTask(req));
    const results = toolResultsOf(req);
    return results.length === 0 ? { toolCalls: [{ name: 'subagents', arguments: args }], usage: { inputTokens: 10, outputTokens: 5 } } : { text: `synthesized: ${results[0].content}`, usage: { inputTokens: 10, outputTokens: 5 } };
  });
}

async function start(extraConfig = '', rules: Rule[] = [{ permission: '*', action: 'allow', source: 'config' }]): Promise<Harness> {
  ctx.harness = await createHarness({
    config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }], `${extraConfig}\n[fermix_core.tools.tool_search]\nenabled = false\n`),
    capabilities: tools,
    rules,
    secrets: { keyring: () => null, env: () => 'k' },
  });
  return ctx.harness;
}

function resultOf(text: string): any {
  return JSON.parse(text.replace(/^synthesized: /, ''));
}

describe('subagents runs real workers', () => {
  it('fans out, narrows the workers to the parent classes minus read_write, and sums their usage into the parent turn', async () => {
    const h = await start();
    calls.length = 0;
    parentScript({ tasks: [{ id: 'alpha', task: 'read the alpha note' }, { id: 'beta', task: 'say hello', context: 'be brief' }], shared_context: 'for the test' }, (req, task) => {
      if (task === 'alpha' && toolResultsOf(req).length === 0) return { toolCalls: [{ name: 'read_note', arguments: { text: 'alpha' } }], usage: { inputTokens: 100, outputTokens: 7 } };
      return { text: `${task} answer: ${toolResultsOf(req)[0]?.content ?? 'hello'}`, usage: { inputTokens: 100, outputTokens: 7 } };
    });
    const before = completions().length;
    const summary = await h.agent.send({ message: 'delegate' }).done;
    expect(summary.status).toBe('completed');
    const result = resultOf(summary.text);
    expect(result.status).toBe('completed');
    expect(result.summary).toEqual({ requested: 2, completed: 2, failed: 0, timed_out: 0, canceled: 0 });
    const byId = Object.fromEntries(result.results.map((r: any) => [r.id, r]));
    expect(byId.alpha).toMatchObject({ status: 'completed', iterations: 2, truncated: false, error: null, input_tokens: 200, output_tokens: 14 });
    expect(byId.alpha.output).toContain('note for {"text":"alpha"}');
    expect(byId.beta).toMatchObject({ status: 'completed', iterations: 1, output: 'beta answer: hello', input_tokens: 100 });
    // The worker ran its tool as an operator-trust subagent.
    expect(calls).toEqual([{ name: 'read_note', origin: 'subagent', trust: 'operator' }]);
    // Workers are offered neither read_write tools nor subagents; the parent is offered both.
    const workerRequests = completions().slice(before).filter(isWorker);
    expect(workerRequests).toHaveLength(3);
    for (const req of workerRequests) expect(toolNamesOf(req).sort()).toEqual(['needs_ok', 'read_note', 'slow_probe']);
    expect(toolNamesOf(completions().slice(before).find((req) => !isWorker(req))!)).toContain('write_note');
    const betaMessage = String(messagesOf(workerRequests.find((req) => workerTask(req) === 'beta')!).find((m) => m.role === 'user').content);
    expect(betaMessage).toContain('be brief');
    expect(betaMessage).toContain('for the test');
    // Parent usage: its own two calls (20 in / 10 out) plus the workers' three (300 / 21).
    expect(summary.usage).toEqual({ input_tokens: 320, output_tokens: 31 });
    // Live cards: each worker was queued, ran, and finished on the parent's stream.
    const cards = h.eventsOf('chat.subagent', summary.conversation_id);
    for (const id of ['alpha', 'beta']) {
      const mine = cards.filter((card) => card.worker_id === id).map((card) => card.status);
      expect(mine[0]).toBe('queued');
      expect(mine).toContain('running');
      expect(mine.at(-1)).toBe('completed');
    }
    expect(cards.find((card) => card.worker_id === 'alpha' && card.tool === 'read_note')).toBeTruthy();
    expect(cards.at(-1)!.turn_id).toBe(summary.turn_id);
  });

  it('a worker cannot run a read_write tool or get an approval: both are refused and reported back', async () => {
    const h = await start('', [{ permission: '*', action: 'allow', source: 'config' }, { permission: 'needs_ok', action: 'ask', source: 'config' }]);
    calls.length = 0;
    parentScript({ tasks: [{ id: 'w', task: 'write and ask' }] }, (req) => {
      const results = toolResultsOf(req);
      if (results.length === 0) return { toolCalls: [{ name: 'write_note', arguments: { text: 'x' } }, { name: 'needs_ok', arguments: { text: 'y' } }] };
      return { text: results.map((r) => r.content).join(' | ') };
    });
    const summary = await h.agent.send({ message: 'delegate' }).done;
    const worker = resultOf(summary.text).results[0];
    expect(worker.status).toBe('completed');
    expect(worker.output).toMatch(/policy_denied/);
    expect(worker.output).toMatch(/read_write/);
    expect(worker.output).toMatch(/permission_denied/);
    expect(worker.output).toMatch(/nobody can answer on this subagent run/);
    expect(calls).toEqual([]);
  });

  it('cuts each answer to its even share of the 60,000-byte budget at a UTF-8 boundary', async () => {
    const h = await start();
    parentScript({ tasks: [{ id: 'a', task: 'long' }, { id: 'b', task: 'short' }] }, (_req, task) => ({ text: task === 'a' ? 'é'.repeat(20_000) + 'x'.repeat(1) : 'short one' }));
    const summary = await h.agent.send({ message: 'delegate' }).done;
    const [a, b] = resultOf(summary.text).results;
    expect(a.truncated).toBe(true);
    expect(Buffer.byteLength(a.output, 'utf8')).toBe(30_000);
    expect(a.output).toBe('é'.repeat(15_000));
    expect(b).toMatchObject({ truncated: false, output: 'short one' });
  });

  it('a worker past its timeout is timed_out, the others still complete', async () => {
    const h = await start();
    probeStarted = 0;
    parentScript({ tasks: [{ id: 'slow', task: 'probe forever' }, { id: 'fast', task: 'answer' }], timeout_seconds: 5 }, (req, task) =>
      task === 'slow' && toolResultsOf(req).length === 0 ? { toolCalls: [{ name: 'slow_probe', arguments: {} }] } : { text: `${task} done` });
    const summary = await h.agent.send({ message: 'delegate' }).done;
    const result = resultOf(summary.text);
    expect(result.status).toBe('partial');
    expect(result.summary).toMatchObject({ requested: 2, completed: 1, timed_out: 1 });
    expect(result.results[0]).toMatchObject({ id: 'slow', status: 'timed_out', error: 'timed out after 5 s (raise timeout_seconds, at most 900, or split the task)' });
    expect(probeStarted).toBe(1);
    // The worker's own stop reason names the parameter that fixes it too (its hint was empty).
    expect(workerStopError('timeout', 5000)).toMatchObject({ code: 'timeout', hint: expect.stringContaining('`timeout_seconds` (this run had 5; at most 900)') });
  }, 20_000);

  it('/stop on the parent cancels the running workers and the ones still queued', async () => {
    const h = await start();
    probeStarted = 0;
    parentScript({ tasks: [{ id: 'one', task: 'probe' }, { id: 'two', task: 'probe' }], max_concurrency: 1 }, (req) =>
      toolResultsOf(req).length === 0 ? { toolCalls: [{ name: 'slow_probe', arguments: {} }] } : { text: 'unreachable' });
    const sent = h.agent.send({ message: 'delegate' });
    await waitUntil(() => probeStarted === 1);
    expect(h.agent.stop(sent.conversation_id)).toBe(1);
    const summary = await sent.done;
    expect(summary.status).toBe('stopped');
    await waitUntil(() => h.eventsOf('chat.subagent', sent.conversation_id).filter((card) => card.status === 'canceled').length === 2);
    expect(probeStarted).toBe(1);
  });

  it("the parent's pause holds its workers before their next model call, and resume lets them finish", async () => {
    const h = await start();
    probeStarted = 0;
    parentScript({ tasks: [{ id: 'p', task: 'probe then answer' }] }, (req) =>
      toolResultsOf(req).length === 0 ? { toolCalls: [{ name: 'slow_probe', arguments: {} }] } : { text: 'finished after resume' });
    const sent = h.agent.send({ message: 'delegate' });
    await waitUntil(() => probeStarted === 1);
    expect(h.agent.pauseTurn(sent.conversation_id).changed).toBe(true);
    const workerCalls = () => completions().filter(isWorker).length;
    const seen = workerCalls();
    releaseProbe!();
    await waitUntil(() => h.agent.holdState(sent.conversation_id) === 'paused');
    expect(workerCalls()).toBe(seen);
    h.agent.resumeTurn(sent.conversation_id);
    const summary = await sent.done;
    expect(resultOf(summary.text).results[0]).toMatchObject({ status: 'completed', output: 'finished after resume' });
  });

  it('[agents.subagent] role narrows what workers are offered', async () => {
    const h = await start('[roles.reader]\ntools = ["fs"]\n[agents.subagent]\nrole = "reader"\n');
    parentScript({ tasks: [{ id: 'r', task: 'look' }] }, () => ({ text: 'looked' }));
    const before = completions().length;
    await h.agent.send({ message: 'delegate' }).done;
    const worker = completions().slice(before).find(isWorker)!;
    // slow_probe (net) is gone; the fs tools stay (write_note is still removed by class).
    expect(toolNamesOf(worker).sort()).toEqual(['needs_ok', 'read_note']);
  });
});

describe('subagents refusals', () => {
  const context = (fields: Partial<ExecutionContext>): ExecutionContext => ({ trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: {}, ...fields });

  it('refuses recursion, calls without a main-agent turn, and duplicate ids', async () => {
    await expect(subagents.executor!({ tasks: [{ id: 'a', task: 't' }] }, context({ origin: 'subagent' }))).rejects.toMatchObject({ code: 'recursion' });
    await expect(subagents.executor!({ tasks: [{ id: 'a', task: 't' }] }, context({}))).rejects.toMatchObject({ code: 'no_source_trust' });
    const port = { runBatch: async () => { throw new Error('must not run'); } };
    await expect(subagents.executor!({ tasks: [{ id: 'a', task: 't' }, { id: 'a', task: 'u' }] }, context({ services: { subagents: port } }))).rejects.toMatchObject({ code: 'invalid_tasks' });
    await expect(subagents.executor!({ tasks: [] }, context({ services: { subagents: port } }))).rejects.toMatchObject({ code: 'invalid_tasks' });
  });

});
