// Approval parking: a turn whose call needs approval waits with its state persisted; after a daemon
// restart (everything closed and opened again on the same home) it asks again and resumes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lastMessageIsToolResult, startModelServer, toolResultsOf, type ModelServer } from '../../test/fixtures/model-server/index.js';
import { createHarness, providerConfig, testTool, type Harness } from './test-harness.js';

let server: ModelServer;
let harness: Harness | undefined;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

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
    harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'anthropic', baseUrl: server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [testTool('read_note'), writeNote()],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    // First a harmless read, then the write that needs approval, in one step.
    server.setScript((req) => (lastMessageIsToolResult(req)
      ? { text: `Finished: ${toolResultsOf(req).map((r) => r.content).join(' / ')}` }
      : { toolCalls: [{ name: 'read_note', arguments: { text: 'a' } }, { name: 'write_note', arguments: { text: 'buy milk' } }] }));
    const sent = harness.agent.send({ message: 'add milk to my note' });
    await waitUntil(() => harness!.approvals.list().length === 1);
    expect(harness.agent.store.getTurn(sent.turn_id).status).toBe('parked');
    expect(harness.agent.store.parked(sent.turn_id)).toMatchObject({ capability: 'write_note', call_id: expect.any(String) });
    expect(harness.eventsOf('chat.parked')).toHaveLength(1);
    const requestsBefore = server.requests.length;

    // The daemon stops while the turn waits. It stays parked; nothing ran.
    await harness.restart();
    expect(written).toEqual([]);
    expect(harness.agent.store.getTurn(sent.turn_id).status).toBe('parked');

    // The new daemon resumes it: the card is shown again (a new id), without asking the model again.
    expect(harness.agent.start()).toBe(1);
    await waitUntil(() => harness!.approvals.list().length === 1);
    const card = harness.approvals.list()[0];
    expect(card).toMatchObject({ capability: 'write_note', conversation_id: sent.conversation_id, args: { text: 'buy milk' } });
    expect(server.requests.length).toBe(requestsBefore);

    harness.approvals.answer(card.id, 'once');
    const result = await harness.agent.wait(sent.turn_id);
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Finished: read_note ran with {"text":"a"} / wrote "buy milk"');
    expect(written).toEqual(['buy milk']);
    // read_note ran once, before the restart; write_note once, after it, with the approval recorded.
    expect(harness.audit.filter((r) => r.decision === 'allow').map((r) => [r.capability, r.approval])).toEqual([['read_note', null], ['write_note', 'once']]);
    expect(harness.agent.store.parked(sent.turn_id)).toBeUndefined();
    expect(harness.agent.store.history(sent.conversation_id).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
  });

  it('a turn that was running (not parked) when the daemon stopped ends interrupted at the next start', async () => {
    harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    server.setScript([{ text: 'a slow answer that never finishes in time', chunks: 8, delayMs: 300 }]);
    const sent = harness.agent.send({ message: 'hello' });
    await waitUntil(() => harness!.eventsOf('chat.turn_started').length > 0);
    await harness.restart();
    expect(harness.agent.start()).toBe(0);
    expect(harness.agent.store.getTurn(sent.turn_id)).toMatchObject({ status: 'interrupted', stop_reason: 'daemon_shutdown' });
  });

  it('/stop while parked cancels the card and stops the turn', async () => {
    written.length = 0;
    harness = await createHarness({
      config: providerConfig([{ name: 'main', type: 'openai', baseUrl: server.baseUrlOpenAI, primary: true, keyEnv: 'K' }]),
      capabilities: () => [writeNote()],
      secrets: { keyring: () => null, env: () => 'k' },
    });
    server.setScript([{ toolCalls: [{ name: 'write_note', arguments: { text: 'x' } }] }]);
    const sent = harness.agent.send({ message: 'write' });
    await waitUntil(() => harness!.approvals.list().length === 1);
    harness.agent.stop(sent.conversation_id);
    const result = await sent.done;
    expect(result.status).toBe('stopped');
    expect(harness.approvals.list()).toEqual([]);
    expect(written).toEqual([]);
    expect(harness.agent.store.parked(sent.turn_id)).toBeUndefined();
  });
});
