import type { EventEnvelope, EventType } from '../api/events.js';
import { eventPayloadSchemas } from '../api/events.js';
import type { z } from 'zod';

export interface EventBusOptions {
  /** Events kept per stream for replay after a reconnect. */
  perStream?: number;
  /** Streams kept in memory; the least recently used is dropped (its history stays in the database). */
  maxStreams?: number;
  /**
   * Approximate bytes of payload text kept for replay across all streams. The event counts alone
   * allow 200 streams × 500 events, which with long answers (every delta plus the final text) is tens
   * of MB held for the daemon's lifetime; past this budget the least recently used streams lose their
   * oldest events first (a replay then says `complete: false` and the window reloads the history).
   */
  maxBytes?: number;
  now?: () => Date;
}

/** Strings dominate event size (deltas, final texts); everything else is counted as a flat overhead. */
const EVENT_OVERHEAD_BYTES = 160;
function approximateBytes(value: unknown, depth = 0): number {
  if (typeof value === 'string') return value.length * 2; // V8 two-byte strings at worst
  if (value === null || typeof value !== 'object' || depth > 3) return 8;
  let total = 0;
  for (const item of Array.isArray(value) ? value : Object.values(value)) total += approximateBytes(item, depth + 1);
  return total;
}

/**
 * Fan-out of daemon events with a per-stream sequence number and a bounded replay buffer,
 * so a reloaded window asks `events.replay {stream, after_seq}` for what it missed.
 */
export function createEventBus(options: EventBusOptions = {}) {
  const perStream = options.perStream ?? 500;
  const maxStreams = options.maxStreams ?? 200;
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  const now = options.now ?? (() => new Date());
  const streams = new Map<string, { seq: number; buffer: EventEnvelope[]; sizes: number[]; bytes: number }>();
  let totalBytes = 0;

  const dropOldest = (state: { buffer: EventEnvelope[]; sizes: number[]; bytes: number }) => {
    state.buffer.shift();
    const size = state.sizes.shift() ?? 0;
    state.bytes -= size;
    totalBytes -= size;
  };
  /** Oldest events of the least recently used streams first; the stream just written keeps its newest. */
  const enforceBudget = (current: object) => {
    for (const state of streams.values()) {
      if (totalBytes <= maxBytes) return;
      const keep = state === current ? 1 : 0;
      while (state.buffer.length > keep && totalBytes > maxBytes) dropOldest(state);
    }
  };
  const listeners = new Set<(event: EventEnvelope) => void>();

  function streamState(stream: string) {
    let state = streams.get(stream);
    if (state) {
      streams.delete(stream); // re-insert: Map order doubles as LRU order
    } else {
      state = { seq: 0, buffer: [], sizes: [], bytes: 0 };
      if (streams.size >= maxStreams) {
        const oldest = streams.keys().next().value as string;
        totalBytes -= streams.get(oldest)!.bytes;
        streams.delete(oldest);
      }
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
      const size = EVENT_OVERHEAD_BYTES + approximateBytes(checked);
      state.buffer.push(event);
      state.sizes.push(size);
      state.bytes += size;
      totalBytes += size;
      if (state.buffer.length > perStream) dropOldest(state);
      if (totalBytes > maxBytes) enforceBudget(state);
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
    /** Approximate payload bytes held for replay (the maxBytes budget). */
    retainedBytes: () => totalBytes,
  };
}

export type EventBus = ReturnType<typeof createEventBus>;
