import type { EventEnvelope } from '../../../main/api/events.js';

export interface ReplayRequest {
  type: 'replay';
  stream: string;
  after_seq: number;
}

export interface ReplayAnswer {
  stream: string;
  events: EventEnvelope[];
  latest_seq: number;
  complete: boolean;
}

/**
 * Per-stream sequence bookkeeping for the event socket: delivers each event once and in order, notices
 * gaps, and says what to ask the daemon for after a reconnect. Pure, so it is tested without a socket.
 *
 * A stream seen for the first time starts wherever it is: the window loaded its state through API calls,
 * so only what happens after that matters.
 */
export function createReplayBook() {
  const last = new Map<string, number>();
  /** Events that arrived ahead of a gap, waiting for the replay that fills it. */
  const held = new Map<string, EventEnvelope[]>();
  const awaiting = new Set<string>();

  function drain(stream: string, deliver: EventEnvelope[]): void {
    const queue = held.get(stream);
    if (!queue) return;
    queue.sort((a, b) => a.seq - b.seq);
    while (queue.length && queue[0].seq <= (last.get(stream) ?? 0) + 1) {
      const next = queue.shift()!;
      if (next.seq === (last.get(stream) ?? 0) + 1) {
        last.set(stream, next.seq);
        deliver.push(next);
      }
    }
    if (!queue.length) held.delete(stream);
  }

  function take(event: EventEnvelope, deliver: EventEnvelope[]): 'taken' | 'gap' {
    const seen = last.get(event.stream);
    if (seen === undefined || event.seq === seen + 1) {
      last.set(event.stream, event.seq);
      deliver.push(event);
      drain(event.stream, deliver);
      return 'taken';
    }
    if (event.seq <= seen) return 'taken'; // a duplicate: live and replayed copies can overlap
    const queue = held.get(event.stream) ?? [];
    if (!queue.some((each) => each.seq === event.seq)) queue.push(event);
    held.set(event.stream, queue);
    return 'gap';
  }

  return {
    /** A live event: what to hand to listeners now, and a replay request when a gap opened. */
    accept(event: EventEnvelope): { deliver: EventEnvelope[]; request?: ReplayRequest } {
      const deliver: EventEnvelope[] = [];
      if (take(event, deliver) === 'gap' && !awaiting.has(event.stream)) {
        awaiting.add(event.stream);
        return { deliver, request: { type: 'replay', stream: event.stream, after_seq: last.get(event.stream) ?? 0 } };
      }
      return { deliver };
    },

    /** The daemon's answer to a replay request. `missed` means events are lost for good: reload the state. */
    applyReplay(answer: ReplayAnswer): { deliver: EventEnvelope[]; missed: boolean } {
      awaiting.delete(answer.stream);
      const deliver: EventEnvelope[] = [];
      const seen = last.get(answer.stream) ?? 0;
      let missed = false;
      if (answer.latest_seq < seen) {
        // The stream restarted (a new daemon run numbers from 1 again): start over from its events.
        missed = true;
        last.delete(answer.stream);
        held.delete(answer.stream);
      } else if (!answer.complete) {
        // The daemon's buffer no longer reaches back to our seq: skip the hole and let the caller reload.
        missed = true;
        const first = answer.events[0]?.seq ?? answer.latest_seq + 1;
        last.set(answer.stream, Math.max(seen, first - 1));
      }
      for (const event of [...answer.events].sort((a, b) => a.seq - b.seq)) take(event, deliver);
      const queue = held.get(answer.stream);
      if (queue?.length) {
        // Still a hole after a full replay: never stall the stream behind it.
        missed = true;
        last.set(answer.stream, Math.min(...queue.map((each) => each.seq)) - 1);
        drain(answer.stream, deliver);
      }
      return { deliver, missed };
    },

    /** After a reconnect: one request per known stream, from the last seq delivered. */
    reconnectRequests(): ReplayRequest[] {
      awaiting.clear();
      return [...last].map(([stream, seq]) => {
        awaiting.add(stream);
        return { type: 'replay' as const, stream, after_seq: seq };
      });
    },

    lastSeq(stream: string): number | undefined {
      return last.get(stream);
    },
  };
}

export type ReplayBook = ReturnType<typeof createReplayBook>;
