import { useControls } from '../../app/model-context.js';
import { computerLabel } from './computer-label.js';

/** The status bar's part: computer use's state stays visible on every screen. */
export function ComputerUseStatus() {
  const computer = useControls((state) => state.computer);
  const problem = useControls((state) => state.problem);
  const label = computerLabel(computer, problem);
  return (
    <p className="status-computer" data-state={label.state} title={computer?.summary ?? problem?.message}>
      <span className="status-dot" aria-hidden="true" />
      Computer use: {label.text}
    </p>
  );
}
