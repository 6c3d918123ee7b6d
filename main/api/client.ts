import { fromWireError, type WireError } from '../core/errors.js';
import type { InputOf, MethodName, OutputOf } from './contract.js';
import type { EventEnvelope } from './events.js';

/** How a client reaches the dispatcher: IPC (preload), HTTP, or the control socket. */
export interface ClientTransport {
  invoke(method: string, input: unknown): Promise<{ ok: true; result: unknown } | { ok: false; error: WireError }>;
  subscribe?(listener: (event: EventEnvelope) => void): () => void;
}

export interface ApiClient {
  call<M extends MethodName>(method: M, ...input: Record<string, never> extends InputOf<M> ? [InputOf<M>?] : [InputOf<M>]): Promise<OutputOf<M>>;
  subscribe(listener: (event: EventEnvelope) => void): () => void;
}

/** A typed client over any transport; errors come back as FermixError with code, message and hint. */
export function createApiClient(transport: ClientTransport): ApiClient {
  return {
    async call(method, ...rest) {
      const response = await transport.invoke(method, rest[0] ?? {});
      if (!response.ok) throw fromWireError(response.error);
      return response.result as never;
    },
    subscribe(listener) {
      if (!transport.subscribe) throw new Error('This transport does not deliver events.');
      return transport.subscribe(listener);
    },
  };
}
