import { useThread } from '../../../app/model-context.js';
import type { DisplayItem } from '../thread/display.js';

/** From send to the first token (or tool call): the model has the message and is working on it. */
export function ThinkingRow() {
  return (
    <p className="thinking-row" role="status" aria-label="Fermix is thinking">
      <span className="thinking-dots" aria-hidden="true"><span /><span /><span /></span>
      Thinking…
    </p>
  );
}

const HOLD_TEXT = {
  pausing: 'Pausing — the step under way finishes first, then the turn holds here. If this answer is its last step, the turn simply ends.',
  paused: 'Paused here — nothing is sent to the model or run until you resume.',
} as const;

/** The one place a held turn is shown: where it stopped, with Resume (and Stop). Gone when the hold is. */
export function HoldBanner({ item }: { item: Extract<DisplayItem, { kind: 'hold' }> }) {
  const resume = useThread((state) => state.resumeTurn);
  const stop = useThread((state) => state.stop);
  return (
    <section className={`hold-banner hold-${item.state}`} role="region" aria-label={item.state === 'paused' ? 'Turn paused' : 'Turn pausing'}>
      <p>{HOLD_TEXT[item.state]}</p>
      <div className="actions">
        <button type="button" className="primary small-button" onClick={() => void resume()}>
          {item.state === 'paused' ? 'Resume' : 'Don’t pause'}
        </button>
        <button type="button" className="small-button danger" onClick={() => void stop()}>
          Stop
        </button>
      </div>
    </section>
  );
}
