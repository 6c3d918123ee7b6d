import { useControls, useThread } from '../../app/model-context.js';
import { activeTurn, type TurnStatus } from '../chat/thread/thread-types.js';
import { computerLabel } from './computer-label.js';

const TURN_LABEL: Partial<Record<TurnStatus, string>> = {
  queued: 'Queued',
  running: 'Answering…',
  parked: 'Waiting for approval',
};

/**
 * The conversation's controls, always in view above the thread: the running turn (Stop) and computer
 * use (Pause / Resume). The agent loop has no turn pause, so /pause and /resume act on computer use, as
 * in Fermix, and the bar says so.
 */
export function ControlsBar() {
  const turn = useThread((state) => activeTurn(state.thread)?.status ?? null);
  const stop = useThread((state) => state.stop);
  const computer = useControls((state) => state.computer);
  const problem = useControls((state) => state.problem);
  const busy = useControls((state) => state.busy);
  const pause = useControls((state) => state.pause);
  const resume = useControls((state) => state.resume);
  const label = computerLabel(computer, problem);
  return (
    <div className="controls-bar" role="toolbar" aria-label="Controls">
      <div className="control" data-state={turn ?? 'idle'}>
        <span className="control-name">Turn</span>
        <span className="control-state" role="status" aria-live="polite">{turn ? TURN_LABEL[turn] : 'Idle'}</span>
        {turn && (
          <button type="button" className="small-button danger" onClick={() => void stop()} aria-label="Stop the running turn">
            Stop
          </button>
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
