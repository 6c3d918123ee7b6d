// chat.turns reads a long conversation's turns in three queries (turns, answers, tool calls) instead of
// three per turn; this proves the batched answer is the same as the turn-by-turn one, on the real store.
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, testTool, type Harness } from './test-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('listing the turns of a conversation', () => {
  it('gives every turn its last answer and its tool calls in order, like reading them one by one', async () => {
    harness = await createHarness({ config: '', capabilities: () => [testTool('noop')] });
    const { store } = harness.agent;
    store.ensureConversation('c1', 'Long');
    store.ensureConversation('c2', 'Other');
    const count = 120;
    for (let index = 0; index < count; index += 1) {
      const id = `T${String(index).padStart(3, '0')}`;
      store.createTurn(id, 'c1', { trust: 'operator', origin: 'chat', interactive: true, kind: 'interactive', message: `q${index}` });
      store.appendMessage('c1', id, { role: 'user', text: `q${index}` });
      if (index % 3 === 0) {
        store.toolCallStarted(id, { call_id: 'a', requested_name: 'noop', name: 'noop', args: { n: index } });
        store.toolCallStarted(id, { call_id: 'b', requested_name: 'tool_call', name: 'noop', args: { n: -index } });
        store.toolCallFinished(id, 'a', { status: 'ok', text: 'fine', duration_ms: 3 });
        store.toolCallFinished(id, 'b', { status: 'error', error_code: 'boom', text: 'failed', duration_ms: 4 });
      }
      // Two answers in some turns: the last non-empty one is the turn's text.
      store.appendMessage('c1', id, { role: 'assistant', text: `first ${index}`, toolCalls: [] });
      if (index % 2 === 0) store.appendMessage('c1', id, { role: 'assistant', text: `final ${index}`, toolCalls: [] });
      if (index % 5 === 0) store.appendMessage('c1', id, { role: 'assistant', text: '', toolCalls: [] });
      if (index % 4 !== 0) store.finishTurn(id, { status: 'completed' });
    }
    // Another conversation's turn must never leak in.
    store.createTurn('X', 'c2', { trust: 'operator', origin: 'chat', interactive: true, kind: 'interactive', message: 'x' });
    store.appendMessage('c2', 'X', { role: 'assistant', text: 'other', toolCalls: [] });

    const listed = harness.agent.turnsOf('c1', 100);
    const oneByOne = store.listTurns('c1', 100).map((row) => ({ ...harness!.agent.turn(row.id), created_at: row.created_at, finished_at: row.finished_at, tool_calls: store.toolCalls(row.id) }));
    expect(listed).toEqual(oneByOne);
    expect(listed).toHaveLength(100);
    expect(listed[0].turn_id).toBe('T020');
    expect(listed.find((turn) => turn.turn_id === 'T023')).toMatchObject({ text: 'first 23', status: 'completed', hold: null, tool_calls: [] });
    expect(listed.find((turn) => turn.turn_id === 'T024')).toMatchObject({ text: 'final 24', status: 'queued', hold: 'running' });
    expect(listed.find((turn) => turn.turn_id === 'T030')!.tool_calls).toEqual([
      { call_id: 'a', requested_name: 'noop', name: 'noop', args: { n: 30 }, status: 'ok', error_code: null, result_preview: 'fine', duration_ms: 3 },
      { call_id: 'b', requested_name: 'tool_call', name: 'noop', args: { n: -30 }, status: 'error', error_code: 'boom', result_preview: 'failed', duration_ms: 4 },
    ]);
    expect(harness.agent.turnsOf('c2', 10).map((turn) => turn.text)).toEqual(['other']);
    expect(harness.agent.turnsOf('nobody', 10)).toEqual([]);
  });
});
