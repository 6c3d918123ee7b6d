import { useControls } from '../../app/model-context.js';
import { computerLabel } from './computer-label.js';

/** The status bar's part: while computer use is enabled, its state stays visible on every screen. */
export function ComputerUseStatus() {
  const computer = useControls((state) => state.computer);
  const problem = useControls((state) => state.problem);
  // Off (the default) it is not news: Settings and /pause say so when asked.
  if (!computer?.enabled) return null;
  const label = computerLabel(computer, problem);
  return (
    <p className="status-computer" data-state={label.state} title={computer.summary}>
      <span className="status-dot" aria-hidden="true" />
      Computer use: {label.text}
    </p>
  );
}
