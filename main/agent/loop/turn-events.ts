/**
 * The loop's view of the event bus: typed chat events on the conversation's stream, with answer
 * deltas coalesced so a long answer does not push the rest of the turn out of the bus's replay buffer.
 *
 * Coalescing is leading-edge: a delta that arrives while no window is open goes out at once (the first
 * token of a turn, or of a step after a tool call, is never held back) and opens a window of
 * `coalesceMs`; deltas inside the window are joined and sent when it closes, which opens the next
 * window. So at most one delta event per window, and no added delay after a pause. Any other event
 * flushes pending text first and closes the window, so order is preserved.
 */
import type { z } from 'zod';
import type { chatEventSchemas } from '../../api/chat-events.js';

export type ChatEventType = keyof typeof chatEventSchemas;
export type ChatEventPayload<T extends ChatEventType> = z.input<(typeof chatEventSchemas)[T]>;

/** What the composition root's EventBus offers (structurally). */
export interface EventSink {
  emit(stream: string, type: any, payload: any): unknown;
  replay?(stream: string, afterSeq: number): { latest_seq: number };
}

export interface TurnEmitter {
  emit<T extends ChatEventType>(type: T, payload: ChatEventPayload<T>): void;
  delta(text: string): void;
  flush(): void;
}

/** Timers, injectable so tests drive the window by hand instead of by wall time. */
export interface CoalesceTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: CoalesceTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Matches the old fixed window: ~40 events a second at most, whatever the model's token rate. */
export const DELTA_COALESCE_MS = 25;

export function createTurnEmitter(sink: EventSink, stream: string, turnId: string, onError: (error: unknown) => void, coalesceMs = DELTA_COALESCE_MS, timers: CoalesceTimers = realTimers): TurnEmitter {
  let pending = '';
  // Defined while a window is open; deltas arriving then wait for its end.
  let window: unknown;
  let windowOpen = false;
  const send = (type: ChatEventType, payload: unknown) => {
    try {
      sink.emit(stream, type, payload);
    } catch (error) {
      // An event that fails its schema is a bug worth logging, never a reason to fail the turn.
      onError(error);
    }
  };
  const sendDelta = (text: string) => send('chat.delta', { turn_id: turnId, text });
  const closeWindow = () => {
    if (windowOpen) timers.clear(window);
    windowOpen = false;
    window = undefined;
  };
  const openWindow = () => {
    windowOpen = true;
    window = timers.set(windowEnded, coalesceMs);
  };
  function windowEnded() {
    windowOpen = false;
    window = undefined;
    if (pending === '') return; // a quiet window: the next delta goes out at once
    const text = pending;
    pending = '';
    sendDelta(text);
    openWindow();
  }
  const flush = () => {
    closeWindow();
    if (pending === '') return;
    const text = pending;
    pending = '';
    sendDelta(text);
  };
  return {
    emit(type, payload) {
      flush();
      send(type, payload);
    },
    delta(text) {
      if (text === '') return;
      if (windowOpen) {
        pending += text;
        return;
      }
      sendDelta(text);
      openWindow();
    },
    flush,
  };
}
