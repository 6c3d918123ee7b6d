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
 * The conversation's controls, always in view above the thread: the running turn (Pause / Resume,
 * Stop) and computer use (Pause / Resume). A turn pause holds the agent before its next model or tool
 * call; the computer-use pause (the seed's /pause) only takes the pointer and keyboard back.
 */
export function ControlsBar() {
  const turn = useThread((state) => activeTurn(state.thread)?.status ?? null);
  const hold = useThread((state) => state.thread?.hold ?? 'running');
  const stop = useThread((state) => state.stop);
  const pauseTurn = useThread((state) => state.pauseTurn);
  const resumeTurn = useThread((state) => state.resumeTurn);
  const computer = useControls((state) => state.computer);
  const problem = useControls((state) => state.problem);
  const busy = useControls((state) => state.busy);
  const pause = useControls((state) => state.pause);
  const resume = useControls((state) => state.resume);
  const label = computerLabel(computer, problem);
  const turnState = turn ? (hold === 'running' ? turn : hold) : 'idle';
  const turnLabel = !turn ? 'Idle' : hold === 'running' ? TURN_LABEL[turn] : HOLD_LABEL[hold];
  return (
    <div className="controls-bar" role="toolbar" aria-label="Controls">
      <div className="control" data-state={turnState}>
        <span className="control-name">Turn</span>
        <span className="control-state" role="status" aria-live="polite">{turnLabel}</span>
        {turn && (
          <>
            <button
              type="button"
              className="small-button"
              onClick={() => void (hold === 'running' ? pauseTurn() : resumeTurn())}
              aria-label={hold === 'running' ? 'Pause the running turn' : 'Resume the running turn'}
              title={hold === 'running' ? 'Hold the turn after the step under way (/pause turn)' : 'Let the turn go on (/resume turn)'}
            >
              {hold === 'running' ? 'Pause' : 'Resume'}
            </button>
            <button type="button" className="small-button danger" onClick={() => void stop()} aria-label="Stop the running turn">
              Stop
            </button>
          </>
        )}
      </div>
      <div className="control" data-state={label.state} title={computer?.summary ?? problem?.message}>
        <span className="control-name">Computer use</span>
        <span className="control-state">{label.text}</span>
        {computer?.enabled && (
          <button
            type="button"
            className="small-button"
            disabled={busy}
            onClick={() => void (computer.paused ? resume() : pause()).catch(() => undefined)}
            aria-label={computer.paused ? 'Resume computer use' : 'Pause computer use'}
          >
            {computer.paused ? 'Resume' : 'Pause'}
          </button>
        )}
      </div>
    </div>
  );
}
