import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import type { WireError } from '../../../../main/core/errors.js';
import { SYSTEM_STREAM, type EventEnvelope } from '../../../../main/api/events.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type ComputerState = OutputOf<'computer.status'>;

export interface ControlsState {
  computer: ComputerState | null;
  /** Why the state is unknown (a daemon without the computer.* methods says not_implemented). */
  problem: WireError | null;
  busy: boolean;
  refresh(): Promise<void>;
  /** `computer.state` on the system stream: the tray, another window or the CLI flipped the switch. */
  applyEvent(event: EventEnvelope): void;
  /** Returns a sentence for the chat (`/pause`, `/resume`), honest when computer use is off. */
  pause(): Promise<string>;
  resume(): Promise<string>;
}

/** Computer use's pause switch, owned by the daemon so the chat, the controls and the tray agree. */
export function createControlsStore(client: ApiClient): StoreApi<ControlsState> {
  return createStore<ControlsState>()((set) => {
    const change = async (method: 'computer.pause' | 'computer.resume'): Promise<string> => {
      set({ busy: true });
      try {
        const { changed, ...computer } = await client.call(method);
        set({ computer, problem: null, busy: false });
        if (!computer.enabled) return `${computer.summary} ${method === 'computer.pause' ? 'The pause is recorded for when it is turned on.' : ''}`.trim();
        if (!changed) return method === 'computer.pause' ? 'Computer use was already paused.' : 'Computer use was not paused.';
        return method === 'computer.pause' ? 'Computer use paused: the agent will not move the pointer or type until you /resume.' : 'Computer use resumed.';
      } catch (error) {
        const problem = toWireError(error);
        set({ problem, busy: false });
        throw error;
      }
    };
    return {
      computer: null,
      problem: null,
      busy: false,
      async refresh() {
        try {
          set({ computer: await client.call('computer.status'), problem: null });
        } catch (error) {
          set({ problem: toWireError(error) });
        }
      },
      applyEvent(event) {
        if (event.stream !== SYSTEM_STREAM || event.type !== 'computer.state') return;
        const next = event.payload as ComputerState;
        if (typeof next?.enabled === 'boolean' && typeof next.paused === 'boolean') set({ computer: next, problem: null });
      },
      pause: () => change('computer.pause'),
      resume: () => change('computer.resume'),
    };
  });
}
