import { eventEnvelopeSchema, type EventEnvelope } from '../../../main/api/events.js';
import { reconnectDelay } from './backoff.js';
import { createReplayBook, type ReplayAnswer } from './replay-book.js';

export type LinkState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized' | 'closed';

export interface EventSocketOptions {
  url: string;
  WebSocket: typeof WebSocket;
  /** Asked before each reconnect: a socket refused with 401 looks like any other close in the browser. */
  isAuthorized(): Promise<boolean>;
  onEvent(event: EventEnvelope): void;
  onLink(state: LinkState): void;
  /** Events may have been lost (reconnect, or a replay that no longer reaches back): reload what is shown. */
  onResync(): void;
  random?: () => number;
}

/** The daemon's event WebSocket, reconnected with backoff; missed events are asked for by replay. */
export function openEventSocket(options: EventSocketOptions): { close(): void } {
  const book = createReplayBook();
  let socket: WebSocket | undefined;
  let attempt = 0;
  let everOpened = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const deliver = (events: EventEnvelope[]) => events.forEach((event) => options.onEvent(event));

  function handleMessage(raw: unknown): void {
    let message: { type?: unknown; event?: unknown } & Partial<ReplayAnswer>;
    try {
      message = JSON.parse(String(raw));
    } catch {
      return;
    }
    if (message.type === 'event') {
      const parsed = eventEnvelopeSchema.safeParse(message.event);
      if (!parsed.success) return;
      const { deliver: ready, request } = book.accept(parsed.data);
      deliver(ready);
      if (request) socket?.send(JSON.stringify(request));
    } else if (message.type === 'replay' && typeof message.stream === 'string') {
      const events = (Array.isArray(message.events) ? message.events : []).flatMap((each) => {
        const parsed = eventEnvelopeSchema.safeParse(each);
        return parsed.success ? [parsed.data] : [];
      });
      const { deliver: ready, missed } = book.applyReplay({ stream: message.stream, events, latest_seq: Number(message.latest_seq ?? 0), complete: message.complete === true });
      deliver(ready);
      if (missed) options.onResync();
    }
  }

  function connect(): void {
    options.onLink(everOpened ? 'reconnecting' : 'connecting');
    const current = new options.WebSocket(options.url);
    socket = current;
    current.onopen = () => {
      attempt = 0;
      options.onLink('open');
      for (const request of book.reconnectRequests()) current.send(JSON.stringify(request));
      // Streams we never saw cannot be replayed (a conversation created while we were away): reload.
      if (everOpened) options.onResync();
      everOpened = true;
    };
    current.onmessage = (message) => handleMessage(message.data);
    current.onclose = () => {
      if (stopped || socket !== current) return;
      options.onLink('reconnecting');
      timer = setTimeout(retry, reconnectDelay(attempt++, options.random));
    };
  }

  async function retry(): Promise<void> {
    if (stopped) return;
    if (!(await options.isAuthorized())) {
      stopped = true;
      options.onLink('unauthorized');
      return;
    }
    if (!stopped) connect();
  }

  connect();
  return {
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      socket?.close();
      options.onLink('closed');
    },
  };
}
