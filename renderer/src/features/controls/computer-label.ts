import type { WireError } from '../../../../main/core/errors.js';
import type { ComputerState } from './store.js';

/** One honest word or two for computer use, shared by the controls bar and the status bar. */
export function computerLabel(computer: ComputerState | null, problem: WireError | null): { text: string; state: 'off' | 'paused' | 'active' | 'acting' | 'unknown' } {
  if (computer) {
    if (!computer.enabled) return { text: 'not enabled', state: 'off' };
    if (computer.paused) return { text: 'paused', state: 'paused' };
    // The tray says the same words while an action runs (main/shell/computer-use-state.ts).
    return computer.acting ? { text: 'acting now', state: 'acting' } : { text: 'active', state: 'active' };
  }
  if (problem?.code === 'not_implemented' || problem?.code === 'method_not_found') return { text: 'unknown (this daemon does not report it)', state: 'unknown' };
  return { text: problem ? 'unknown' : '…', state: 'unknown' };
}
