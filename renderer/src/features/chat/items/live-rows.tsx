import { useEffect, useRef } from 'react';
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

/** Someone typing a message keeps their focus; otherwise the pause's one real choice is where focus goes. */
function typingAMessage(): boolean {
  const active = document.activeElement;
  return active instanceof HTMLTextAreaElement && active.value.trim() !== '';
}

/**
 * The one place a held turn is shown: where it stopped, with Resume (and Stop). Gone when the hold is.
 * When the pause lands, Resume takes focus (so Enter resumes); Escape here stops, as in the message box.
 */
export function HoldBanner({ item }: { item: Extract<DisplayItem, { kind: 'hold' }> }) {
  const resume = useThread((state) => state.resumeTurn);
  const stop = useThread((state) => state.stop);
  const resumeButton = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    if (item.state === 'paused' && !typingAMessage()) resumeButton.current?.focus();
  }, [item.state]);
  return (
    <section
      className={`hold-banner hold-${item.state}`}
      role="region"
      aria-label={item.state === 'paused' ? 'Turn paused' : 'Turn pausing'}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        void stop();
      }}
    >
      {item.state === 'paused' && <span className="pause-glyph" aria-hidden="true" />}
      <p>{HOLD_TEXT[item.state]}</p>
      <div className="actions">
        <button ref={resumeButton} type="button" className="primary small-button" onClick={() => void resume()} title="Let the turn go on (/resume turn)">
          {item.state === 'paused' ? 'Resume' : 'Don’t pause'}
        </button>
        <button type="button" className="small-button danger" onClick={() => void stop()} title="End the turn here (/stop, Escape)">
          Stop
        </button>
      </div>
    </section>
  );
}
