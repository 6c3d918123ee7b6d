import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import { FermixError, type WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import type { AppTransport, LinkState } from '../../api/transport.js';

export type DaemonStatus = OutputOf<'system.status'>;
export type ConnectionPhase = 'connecting' | 'connected' | 'reconnecting' | 'unauthorized' | 'unreachable';

export interface ConnectionState {
  transport: AppTransport['kind'];
  link: LinkState;
  status: DaemonStatus | null;
  error: WireError | null;
  refresh(): Promise<void>;
}

/** One word for the status bar, derived so that link state and the last API answer cannot disagree. */
export function connectionPhase(state: Pick<ConnectionState, 'link' | 'status' | 'error'>): ConnectionPhase {
  if (state.link === 'unauthorized' || state.error?.code === 'unauthorized') return 'unauthorized';
  if (state.error?.code === 'daemon_unreachable') return 'unreachable';
  if (state.link === 'reconnecting') return 'reconnecting';
  if (state.status && state.link === 'open') return 'connected';
  return 'connecting';
}

export function toWireError(error: unknown): WireError {
  if (error instanceof FermixError) return error.toWire();
  return { code: 'client_error', message: String((error as Error)?.message ?? error), hint: 'Reload the window; if it happens again, run `fermix logs -n 50`.' };
}

/** Connection to the daemon: transport link state plus `system.status` (version, pid, home, addresses). */
export function createConnectionStore(client: ApiClient, transport: AppTransport): StoreApi<ConnectionState> & { dispose(): void } {
  const store = createStore<ConnectionState>()((set) => ({
    transport: transport.kind,
    link: 'connecting',
    status: null,
    error: null,
    async refresh() {
      try {
        const status = await client.call('system.status');
        set({ status, error: null });
      } catch (error) {
        const wire = toWireError(error);
        set({ error: wire.code === 'unauthorized' && transport.signInProblem ? transport.signInProblem : wire });
      }
    },
  }));
  const stopLink = transport.onLink((link) => {
    const wasDown = store.getState().link === 'reconnecting';
    store.setState({ link });
    // After a reconnect the daemon may be a new run (new pid, version after an upgrade); after a refusal,
    // the daemon's own message and hint are worth showing.
    if ((link === 'open' && wasDown) || link === 'unauthorized') void store.getState().refresh();
  });
  return Object.assign(store, { dispose: stopLink });
}
