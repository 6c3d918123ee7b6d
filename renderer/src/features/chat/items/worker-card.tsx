import type { WorkerCardState } from './worker-card-state.js';

const LABEL: Record<WorkerCardState['status'], string> = {
  queued: 'Queued', running: 'Running', completed: 'Done', failed: 'Failed', timed_out: 'Timed out', canceled: 'Canceled',
};

/** One subagent worker, live: status, current tool, iterations, tokens, then its answer's start or its error. */
export function WorkerCard({ card }: { card: WorkerCardState }) {
  const tokens = card.input_tokens + card.output_tokens;
  return (
    <section className={`card worker-card worker-${card.status}`} role="group" aria-label={`Subagent ${card.worker_id}: ${LABEL[card.status]}`}>
      <header className="card-header">
        <strong>{card.worker_id}</strong> <span className="muted small" role="status">{LABEL[card.status]}</span>
      </header>
      <p className="small">{card.task}</p>
      <p className="muted small">
        {card.iterations} step{card.iterations === 1 ? '' : 's'}
        {card.tool ? <> · <code>{card.tool}</code></> : null}
        {tokens > 0 ? ` · ${tokens} tokens` : ''}
        {card.cost_usd !== null ? ` · $${card.cost_usd.toFixed(4)}` : ''}
        {card.duration_ms !== null ? ` · ${(card.duration_ms / 1000).toFixed(1)} s` : ''}
      </p>
      {card.error ? <p className="error small">{card.error}</p> : null}
      {card.preview ? <p className="small worker-preview">{card.preview}</p> : null}
    </section>
  );
}
