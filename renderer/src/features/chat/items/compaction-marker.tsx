import { useState } from 'react';
import type { ThreadItem } from '../thread/thread-types.js';

const REASONS = { auto: 'automatically, near the model’s context window', manual: 'with /compact', overflow: 'after the model refused a request as too long' } as const;

/**
 * Where a conversation was compacted: the messages above stay for the person, while the model reads
 * the summary instead of them. The summary opens in place.
 */
export function CompactionMarker({ item }: { item: Extract<ThreadItem, { kind: 'compaction' }> }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="compaction-marker" aria-label="Conversation compacted">
      <button type="button" className="small-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide the summary' : 'Conversation compacted here — read the summary'}
      </button>
      <p className="muted small">
        {item.replaced.toLocaleString('en-US')} earlier messages summarized {REASONS[item.reason]}; the model reads the summary instead of them.
      </p>
      {open && <blockquote className="compaction-summary" aria-label="Compaction summary">{item.summary}</blockquote>}
    </section>
  );
}
