import { useConnection } from '../../app/model-context.js';
import { ComputerUseStatus } from '../controls/computer-use-status.js';
import { PHASE_LABELS } from './phase-labels.js';
import { connectionPhase } from './store.js';

export function StatusBar() {
  const phase = useConnection(connectionPhase);
  const version = useConnection((state) => state.status?.version);
  const transport = useConnection((state) => state.transport);
  return (
    <footer className="status-bar">
      <p className="status-connection" role="status" aria-live="polite" data-phase={phase}>
        <span className="status-dot" aria-hidden="true" />
        {PHASE_LABELS[phase]}
      </p>
      {phase === 'connected' && <ComputerUseStatus />}
      <p className="status-daemon">
        {version ? <>Fermix daemon {version}</> : 'Daemon version unknown'}
        <span className="status-transport"> · {transport === 'ipc' ? 'in-app' : 'via HTTP'}</span>
      </p>
    </footer>
  );
}
