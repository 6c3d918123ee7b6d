import { eventEnvelopeSchema } from '../../../main/api/events.js';
import type { FermixBridge } from './bridge.js';
import type { AppTransport } from './transport-types.js';

/**
 * Inside Electron: the preload bridge. The link is in-process, so it is open from the start and never
 * drops events; a reloaded window asks `events.replay` through the API like any client.
 */
export function createIpcTransport(bridge: FermixBridge): AppTransport {
  return {
    kind: 'ipc',
    invoke: (method, input) => bridge.invoke(method, input),
    subscribe(listener) {
      return bridge.subscribe((raw) => {
        const parsed = eventEnvelopeSchema.safeParse(raw);
        if (parsed.success) listener(parsed.data);
      });
    },
    onLink(listener) {
      listener('open');
      return () => {};
    },
    onResync() {
      return () => {};
    },
    close() {},
  };
}
