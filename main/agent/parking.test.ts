// Approval parking: a turn whose call needs approval waits with its state persisted; after a daemon
// restart (everything closed and opened again on the same home) it asks again and resumes.
import { describe, expect, it } from 'vitest';
import { useAgentTestContext } from './test-context.js';
import { lastMessageIsToolResult, toolResultsOf } from '../../test/fixtures/model-server/index.js';
import { createHarness, providerConfig, testTool } from './test-harness.js';

const ctx = useAgentTestContext();

const written: string[] = [];
const writeNote = () => testTool('write_note', {
  policy_class: 'read_write',
  run: async (args) => {
    written.push(String(args.text));
    return { text: `wrote "${String(args.text)}"` };
  },
});

async function waitUntil(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('approval parking', () => {
  it('parks, survives a daemon restart, is approved and completes', async () => {
    written.length = 0;
    ctx.harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'anthropic', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [testTool('read_note'), writeNote()],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    // First a harmless read, then the write that needs approval, in one step.
    ctx.server.setScript((req) => (lastMessageIsToolResult(req)
      ? { text: `Finished: ${toolResultsOf(req).map((r) => r.content).join(' / ')}` }
      : { toolCalls: [{ name: 'read_note', arguments: { text: 'a' } }, { name: 'write_note', arguments: { text: 'buy milk' } }] }));
    const sent = ctx.harness.agent.send({ message: 'add milk to my note' });
    await waitUntil(() => ctx.harness!.approvals.list().length === 1);
    expect(ctx.harness.agent.store.getTurn(sent.turn_id).status).toBe('parked');
    expect(ctx.harness.agent.store.parked(sent.turn_id)).toMatchObject({ capability: 'write_note', call_id: expect.any(String) });
    expect(ctx.harness.eventsOf('chat.parked')).toHaveLength(1);
    const requestsBefore = ctx.server.requests.length;

    // The daemon stops while the turn waits. It stays parked; nothing ran.
    await ctx.harness.restart();
    expect(written).toEqual([]);
    expect(ctx.harness.agent.store.getTurn(sent.turn_id).status).toBe('parked');

    // The new daemon resumes it: the card is shown again (a new id), without asking the model again.
    expect(ctx.harness.agent.start()).toBe(1);
    await waitUntil(() => ctx.harness!.approvals.list().length === 1);
    const card = ctx.harness.approvals.list()[0];
    expect(card).toMatchObject({ capability: 'write_note', conversation_id: sent.conversation_id, args: { text: 'buy milk' } });
    expect(ctx.server.requests.length).toBe(requestsBefore);

    ctx.harness.approvals.answer(card.id, 'once');
    const result = await ctx.harness.agent.wait(sent.turn_id);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Finished: read_note ran with {"text":"a"} / wrote "buy milk"');
    expect(written).toEqual(['buy milk']);
    // read_note ran once, before the restart; write_note once, after it, with the approval recorded.
    expect(ctx.harness.audit.filter((r) => r.decision === 'allow').map((r) => [r.capability, r.approval])).toEqual([['read_note', null], ['write_note', 'once']]);
    expect(ctx.harness.agent.store.parked(sent.turn_id)).toBeUndefined();
    expect(ctx.harness.agent.store.history(sent.conversation_id).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
  });

  it('a turn that was running (not parked) when the daemon stopped ends interrupted at the next start', async () => {
    ctx.harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    ctx.server.setScript([{ text: 'a slow answer that never finishes in time', chunks: 8, delayMs: 300 }]);
    const sent = ctx.harness.agent.send({ message: 'hello' });
    await waitUntil(() => ctx.harness!.eventsOf('chat.turn_started').length > 0);
    await ctx.harness.restart();
    expect(ctx.harness.agent.start()).toBe(0);
    expect(ctx.harness.agent.store.getTurn(sent.turn_id)).toMatchObject({ status: 'interrupted', stop_reason: 'daemon_shutdown' });
  });

  it('/stop while parked cancels the card and stops the turn', async () => {
    written.length = 0;
    ctx.harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: ctx.server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [writeNote()],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    ctx.server.setScript([{ toolCalls: [{ name: 'write_note', arguments: { text: 'x' } }] }]);
    const sent = ctx.harness.agent.send({ message: 'write' });
    await waitUntil(() => ctx.harness!.approvals.list().length === 1);
    ctx.harness.agent.stop(sent.conversation_id);
    const result = await sent.done;
    expect(result.status).toBe('stopped');
    expect(ctx.harness.approvals.list()).toEqual([]);
    expect(written).toEqual([]);
    expect(ctx.harness.agent.store.parked(sent.turn_id)).toBeUndefined();
  });
});
