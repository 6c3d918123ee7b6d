// chat.subagent events become live worker cards right under the subagents call that started them.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../../../../main/api/events.js';
import { WorkerCards } from '../items/worker-cards.js';
import { applyThreadEvent } from './apply-event.js';
import { displayItems } from './display.js';
import { emptyThread, type Thread } from './thread-types.js';

let seq = 0;
const event = (type: string, payload: Record<string, unknown>): EventEnvelope => ({ stream: 'c1', seq: (seq += 1), type, payload, time: '2026-01-01T00:00:00.000Z' }) as unknown as EventEnvelope;
const worker = (worker_id: string, status: string, extra: Record<string, unknown> = {}) =>
  event('chat.subagent', { turn_id: 'T1', batch_id: 'B1', worker_id, task: `task ${worker_id}`, status, iterations: 0, tool: null, duration_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: null, error: null, preview: null, ...extra });

function fold(events: EventEnvelope[]): Thread {
  return events.reduce((thread, each) => applyThreadEvent(thread, each), { ...emptyThread('c1'), turns: { T1: 'running' } } as Thread);
}

describe('subagent worker cards in the thread', () => {
  it('fold under the subagents tool card, one card per worker, updated in place', () => {
    const thread = fold([
      event('chat.turn_started', { turn_id: 'T1', conversation_id: 'c1', resumed: false }),
      event('chat.tool_call', { turn_id: 'T1', call_id: 'k1', name: 'subagents', requested_name: 'subagents', args: { tasks: [] } }),
      event('chat.tool_call', { turn_id: 'T1', call_id: 'k2', name: 'file_read', requested_name: 'file_read', args: { path: 'a' } }),
      worker('w1', 'running', { iterations: 1, tool: 'web_search' }),
      worker('w2', 'queued'),
      worker('w1', 'completed', { iterations: 3, preview: 'Found three sources.' }),
    ]);
    const kinds = thread.items.map((item) => (item.kind === 'tool' ? `tool:${item.name}` : item.kind));
    expect(kinds.slice(kinds.indexOf('tool:subagents'), kinds.indexOf('tool:subagents') + 2)).toEqual(['tool:subagents', 'workers']);
    const workers = thread.items.find((item) => item.kind === 'workers');
    expect(workers?.kind === 'workers' && workers.cards.map((card) => `${card.worker_id}:${card.status}`)).toEqual(['w1:completed', 'w2:queued']);
    expect(displayItems(thread).some((item) => item.kind === 'workers')).toBe(true);

    if (workers?.kind !== 'workers') throw new Error('no workers item');
    render(<WorkerCards item={workers} />);
    expect(screen.getByRole('group', { name: 'Subagent w1: Done' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Subagent w2: Queued' })).toBeTruthy();
    expect(screen.getByText('Found three sources.')).toBeTruthy();
  });
});
