import type { EventEnvelope, EventType } from '../api/events.js';
import { eventPayloadSchemas } from '../api/events.js';
import type { z } from 'zod';

export interface EventBusOptions {
  /** Events kept per stream for replay after a reconnect. */
  perStream?: number;
  /** Streams kept in memory; the least recently used is dropped (its history stays in the database). */
  maxStreams?: number;
  now?: () => Date;
}

/**
 * Fan-out of daemon events with a per-stream sequence number and a bounded replay buffer,
 * so a reloaded window asks `events.replay {stream, after_seq}` for what it missed.
 */
export function createEventBus(options: EventBusOptions = {}) {
  const perStream = options.perStream ?? 500;
  const maxStreams = options.maxStreams ?? 200;
  const now = options.now ?? (() => new Date());
  const streams = new Map<string, { seq: number; buffer: EventEnvelope[] }>();
  const listeners = new Set<(event: EventEnvelope) => void>();

  function streamState(stream: string) {
    let state = streams.get(stream);
    if (state) {
      streams.delete(stream); // re-insert: Map order doubles as LRU order
    } else {
      state = { seq: 0, buffer: [] };
      if (streams.size >= maxStreams) streams.delete(streams.keys().next().value as string);
    }
    streams.set(stream, state);
    return state;
  }

  return {
    emit<T extends EventType>(stream: string, type: T, payload: z.input<(typeof eventPayloadSchemas)[T]>): EventEnvelope {
      const checked = eventPayloadSchemas[type].parse(payload);
      const state = streamState(stream);
      state.seq += 1;
      const event: EventEnvelope = { stream, seq: state.seq, type, time: now().toISOString(), payload: checked };
      state.buffer.push(event);
      if (state.buffer.length > perStream) state.buffer.shift();
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // One broken subscriber must not stop delivery to the others.
        }
      }
      return event;
    },
    subscribe(listener: (event: EventEnvelope) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** `complete` is false when the buffer no longer reaches back to after_seq: reload the whole history instead. */
    replay(stream: string, afterSeq: number): { events: EventEnvelope[]; latest_seq: number; complete: boolean } {
      const state = streams.get(stream);
      if (!state) return { events: [], latest_seq: 0, complete: afterSeq === 0 };
      const events = state.buffer.filter((event) => event.seq > afterSeq);
      const oldest = state.buffer[0]?.seq ?? state.seq + 1;
      return { events, latest_seq: state.seq, complete: afterSeq >= oldest - 1 };
    },
    listenerCount: () => listeners.size,
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
