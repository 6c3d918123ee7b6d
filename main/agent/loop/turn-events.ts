/**
 * The loop's view of the event bus: typed chat events on the conversation's stream, with answer
 * deltas coalesced (one event per ~25 ms instead of one per token) so a long answer does not push the
 * rest of the turn out of the bus's replay buffer. Any other event flushes pending text first, so
 * order is preserved.
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

export function createTurnEmitter(sink: EventSink, stream: string, turnId: string, onError: (error: unknown) => void, coalesceMs = 25): TurnEmitter {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const send = (type: ChatEventType, payload: unknown) => {
    try {
      sink.emit(stream, type, payload);
    } catch (error) {
      // An event that fails its schema is a bug worth logging, never a reason to fail the turn.
      onError(error);
    }
  };
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    send('chat.delta', { turn_id: turnId, text });
  };
  return {
    emit(type, payload) {
      flush();
      send(type, payload);
    },
    delta(text) {
      if (text === '') return;
      pending += text;
      timer ??= setTimeout(flush, coalesceMs);
    },
    flush,
  };
}
