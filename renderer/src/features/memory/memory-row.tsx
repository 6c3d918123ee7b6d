import { useId } from 'react';
import { formatDateTime } from '../../ui/format.js';
import type { Memory } from './store.js';

/** owner / agent / conversation:<id> / job:<id>, in words. */
export function scopeLabel(scope: string): string {
  if (scope === 'owner') return 'About you';
  if (scope === 'agent') return 'For the agent';
  if (scope.startsWith('conversation:')) return 'One conversation';
  if (scope.startsWith('job:')) return 'A scheduled job';
  return scope;
}

/**
 * One memory: key, value, category, scope, confidence and whether a guest wrote it. Forget asks once
 * before it deletes (there is no undo: the row is gone from the database). The buttons keep their short
 * visible names; which memory they act on is their description (aria-describedby), not a longer label.
 */
export function MemoryRow({ memory, confirming, onAsk, onCancel, onForget }: { memory: Memory; confirming: boolean; onAsk: () => void; onCancel: () => void; onForget: () => void }) {
  const keyId = useId();
  const confirmId = useId();
  return (
    <li className="memory-row" data-confirming={confirming || undefined}>
      <div className="memory-text">
        <span className="memory-key" id={keyId}>{memory.key}</span>
        <span className="memory-value">{memory.value}</span>
      </div>
      <div className="memory-tags small">
        <span className="memory-tag">{memory.category}</span>
        <span className="memory-tag" title={memory.scope}>{scopeLabel(memory.scope)}</span>
        <span className="memory-tag">{Math.round(memory.confidence * 100)}% sure</span>
        {memory.written_by === 'guest' && <span className="memory-tag memory-guest">Written by a guest</span>}
        <time className="muted" dateTime={memory.updated_at}>{formatDateTime(memory.updated_at)}</time>
      </div>
      <div className="memory-actions">
        {confirming ? (
          <>
            <span id={confirmId} className="small">Forget “{memory.key}” for good?</span>
            <button type="button" className="danger" aria-describedby={confirmId} onClick={onForget} autoFocus>Forget</button>
            <button type="button" aria-describedby={confirmId} onClick={onCancel}>Keep</button>
          </>
        ) : (
          <button type="button" aria-describedby={keyId} onClick={onAsk}>Forget</button>
        )}
      </div>
    </li>
  );
}
