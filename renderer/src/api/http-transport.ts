import type { WireError } from '../../../main/core/errors.js';
import type { EventEnvelope } from '../../../main/api/events.js';
import { openEventSocket, type LinkState } from './event-socket.js';
import { unreachableError } from './token-exchange.js';
import type { AppTransport } from './transport-types.js';

export interface HttpTransportScope {
  location: Pick<Location, 'protocol' | 'host'>;
  fetch: typeof fetch;
  WebSocket: typeof WebSocket;
}

/**
 * The renderer served to a plain browser by the daemon: POST /api/<method> with the session cookie,
 * events over the /api/events WebSocket (opened on the first subscription).
 */
export function createHttpTransport(scope: HttpTransportScope): AppTransport {
  const eventListeners = new Set<(event: EventEnvelope) => void>();
  const linkListeners = new Set<(state: LinkState) => void>();
  const resyncListeners = new Set<() => void>();
  let link: LinkState = 'connecting';
  let socket: { close(): void } | undefined;

  const setLink = (state: LinkState) => {
    link = state;
    linkListeners.forEach((listener) => listener(state));
  };

  async function invoke(method: string, input: unknown): Promise<{ ok: true; result: unknown } | { ok: false; error: WireError }> {
    let response: Response;
    try {
      response = await scope.fetch(`/api/${encodeURIComponent(method)}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input ?? {}),
      });
    } catch {
      return { ok: false, error: unreachableError };
    }
    const body = (await response.json().catch(() => undefined)) as { result?: unknown; error?: WireError } | undefined;
    if (response.status === 401 && link !== 'unauthorized') {
      socket?.close();
      socket = undefined;
      setLink('unauthorized');
    }
    if (body && 'result' in body && response.ok) return { ok: true, result: body.result };
    return {
      ok: false,
      error: body?.error ?? { code: 'bad_response', message: `The daemon answered ${method} with HTTP ${response.status} and no result.`, hint: 'Run `fermix logs -n 50` to see what happened.' },
    };
  }

  function ensureSocket(): void {
    if (socket || link === 'unauthorized') return;
    const wsProtocol = scope.location.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = openEventSocket({
      url: `${wsProtocol}//${scope.location.host}/api/events`,
      WebSocket: scope.WebSocket,
      isAuthorized: async () => {
        const probe = await invoke('system.health', {});
        return probe.ok || probe.error.code !== 'unauthorized';
      },
      onEvent: (event) => eventListeners.forEach((listener) => listener(event)),
      onLink: setLink,
      onResync: () => resyncListeners.forEach((listener) => listener()),
    });
  }

  return {
    kind: 'http',
    invoke,
    subscribe(listener) {
      eventListeners.add(listener);
      ensureSocket();
      return () => eventListeners.delete(listener);
    },
    onLink(listener) {
      linkListeners.add(listener);
      listener(link);
      return () => linkListeners.delete(listener);
    },
    onResync(listener) {
      resyncListeners.add(listener);
      return () => resyncListeners.delete(listener);
    },
    close() {
      socket?.close();
      socket = undefined;
    },
  };
}
