import type { ClientTransport } from '../../../main/api/client.js';
import type { EventEnvelope } from '../../../main/api/events.js';
import type { WireError } from '../../../main/core/errors.js';
import type { LinkState } from './event-socket.js';

export type { LinkState };

/** A ClientTransport plus what the window needs to show its connection. */
export interface AppTransport extends ClientTransport {
  kind: 'ipc' | 'http';
  /** Why the URL's token was refused, if it was: more precise than the 401 of the next call. */
  signInProblem?: WireError;
  subscribe(listener: (event: EventEnvelope) => void): () => void;
  /** Calls the listener with the current state at once, then on every change. */
  onLink(listener: (state: LinkState) => void): () => void;
  /** Events may have been missed: reload what is shown. */
  onResync(listener: () => void): () => void;
  close(): void;
}
