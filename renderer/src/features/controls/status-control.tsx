import { useControls, useThread } from '../../app/model-context.js';
import { activeTurn, type HoldState, type TurnStatus } from '../chat/thread/thread-types.js';
import { computerLabel } from './computer-label.js';

const TURN_LABEL: Partial<Record<TurnStatus, string>> = {
  queued: 'Queued',
  running: 'Answering…',
  parked: 'Waiting for approval',
};

const HOLD_LABEL: Record<Exclude<HoldState, 'running'>, string> = {
  pausing: 'Pausing after this step…',
  paused: 'Paused',
};

/**
 * The conversation's one status control: it shows only what is going on. A running turn shows its state
 * and one compact Pause; Stop is the composer's (beside Send, as in other chat apps). A held turn (pausing,
 * paused) shows its state as text only: the banner in the thread, where the turn is held, has Resume and
 * Stop, so the window never offers the same button twice. Computer use appears only when it is enabled.
 * Idle and off, it is empty — the turn state is still announced to screen readers ("Idle").
 */
export function StatusControl() {
  const turn = useThread((state) => activeTurn(state.thread)?.status ?? null);
  const hold = useThread((state) => state.thread?.hold ?? 'running');
  const pauseTurn = useThread((state) => state.pauseTurn);
  const computer = useControls((state) => state.computer);
  const busy = useControls((state) => state.busy);
  const pause = useControls((state) => state.pause);
  const resume = useControls((state) => state.resume);
  const turnState = turn ? (hold === 'running' ? turn : hold) : 'idle';
  const turnLabel = !turn ? 'Idle' : hold === 'running' ? TURN_LABEL[turn] : HOLD_LABEL[hold];
  const computerOn = computer?.enabled === true;
  const computerState = computerLabel(computer, null);
  return (
    <div className="status-control" role="toolbar" aria-label="Controls" data-empty={!turn && !computerOn ? true : undefined}>
      <span className={turn ? 'status-turn' : 'visually-hidden'} data-state={turnState} role="status" aria-live="polite">
        {turn && <span className={hold === 'paused' ? 'pause-glyph' : 'spinner'} aria-hidden="true" />}
        {turnLabel}
      </span>
      {turn && hold === 'running' && (
        <button
          type="button"
          className="small-button"
          onClick={() => void pauseTurn()}
          aria-label="Pause the running turn"
          title="Hold the turn after the step under way (/pause turn)"
        >
          Pause
        </button>
      )}
      {turn && computerOn && <span className="status-divider" aria-hidden="true" />}
      {computerOn && (
        <span className="status-computer-use" data-state={computerState.state} title={computer.summary}>
          <span className="status-dot" aria-hidden="true" />
          <span className="control-name">Computer use</span>{' '}
          <span className="control-state">{computerState.state === 'acting' ? 'Acting now' : computerState.text}</span>
          <button
            type="button"
            className="small-button"
            disabled={busy}
            onClick={() => void (computer.paused ? resume() : pause()).catch(() => undefined)}
            aria-label={computer.paused ? 'Resume computer use' : 'Pause computer use'}
          >
            {computer.paused ? 'Resume' : 'Pause'}
          </button>
        </span>
      )}
    </div>
  );
}
