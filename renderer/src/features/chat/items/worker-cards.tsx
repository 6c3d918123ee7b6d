import type { ThreadItem } from '../thread/thread-types.js';
import { WorkerCard } from './worker-card.js';

/** The live cards of one `subagents` call, under the call's own card. */
export function WorkerCards({ item }: { item: Extract<ThreadItem, { kind: 'workers' }> }) {
  const done = item.cards.filter((card) => card.status !== 'queued' && card.status !== 'running').length;
  return (
    <section className="worker-cards" aria-label={`Subagent workers: ${done} of ${item.cards.length} finished`}>
      {item.cards.map((card) => (
        <WorkerCard key={`${card.batch_id}:${card.worker_id}`} card={card} />
      ))}
    </section>
  );
}
