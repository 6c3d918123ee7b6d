import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { eventPayloadSchemas } from '../../../../../main/api/events.js';
import { WorkerCard } from './worker-card.js';
import { applySubagentEvent, type WorkerCardState } from './worker-card-state.js';

const event = (fields: Partial<WorkerCardState>): WorkerCardState => eventPayloadSchemas['chat.subagent'].parse({
  turn_id: 't', batch_id: 'b', worker_id: 'flights', task: 'find flights', status: 'queued', iterations: 0, tool: null,
  duration_ms: null, input_tokens: 0, output_tokens: 0, cost_usd: null, error: null, preview: null, ...fields,
});

describe('worker cards', () => {
  it('keeps the latest state per worker, in first-seen order', () => {
    let cards = applySubagentEvent([], event({}));
    cards = applySubagentEvent(cards, event({ worker_id: 'hotels' }));
    cards = applySubagentEvent(cards, event({ status: 'running', tool: 'web_search', iterations: 1 }));
    expect(cards.map((card) => [card.worker_id, card.status])).toEqual([['flights', 'running'], ['hotels', 'queued']]);
  });

  it('shows the running tool, then the outcome', () => {
    const { rerender } = render(<WorkerCard card={event({ status: 'running', tool: 'web_search', iterations: 2, input_tokens: 90, output_tokens: 10 })} />);
    expect(screen.getByRole('group', { name: 'Subagent flights: Running' })).toBeTruthy();
    expect(screen.getByText('web_search')).toBeTruthy();
    expect(screen.getByText(/100 tokens/)).toBeTruthy();
    rerender(<WorkerCard card={event({ status: 'timed_out', iterations: 3, duration_ms: 5000, error: 'timed out after 5 s' })} />);
    expect(screen.getByRole('status').textContent).toBe('Timed out');
    expect(screen.getByText('timed out after 5 s')).toBeTruthy();
  });
});
