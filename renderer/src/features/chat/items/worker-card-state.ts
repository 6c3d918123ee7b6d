/**
 * Live subagent worker cards from `chat.subagent` events: the latest state per worker, keyed by
 * batch_id + worker_id, in the order the workers were first seen. Pure, so the thread store (or any
 * other holder) can fold events into it.
 */
import type { z } from 'zod';
import type { eventPayloadSchemas } from '../../../../../main/api/events.js';

export type WorkerCardState = z.output<(typeof eventPayloadSchemas)['chat.subagent']>;

export function applySubagentEvent(cards: readonly WorkerCardState[], event: WorkerCardState): WorkerCardState[] {
  const index = cards.findIndex((card) => card.batch_id === event.batch_id && card.worker_id === event.worker_id);
  if (index === -1) return [...cards, event];
  const next = [...cards];
  next[index] = event;
  return next;
}
