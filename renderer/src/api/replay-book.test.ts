import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../../main/api/events.js';
import { reconnectDelay } from './backoff.js';
import { createReplayBook } from './replay-book.js';

const event = (stream: string, seq: number): EventEnvelope => ({ stream, seq, type: 'conversation.updated', time: '2026-01-01T00:00:00.000Z', payload: { id: stream, title: `t${seq}` } });
const seqs = (events: EventEnvelope[]) => events.map((each) => `${each.stream}:${each.seq}`);

describe('replay bookkeeping', () => {
  it('delivers the first event of a stream wherever it starts, then in order, and drops duplicates', () => {
    const book = createReplayBook();
    expect(seqs(book.accept(event('c1', 7)).deliver)).toEqual(['c1:7']);
    expect(seqs(book.accept(event('c1', 8)).deliver)).toEqual(['c1:8']);
    expect(book.accept(event('c1', 8)).deliver).toEqual([]);
    expect(book.accept(event('c1', 3)).deliver).toEqual([]);
    expect(book.lastSeq('c1')).toBe(8);
  });

  it('holds events after a gap, asks for the gap once, and delivers in order when the replay fills it', () => {
    const book = createReplayBook();
    book.accept(event('c1', 1));
    const first = book.accept(event('c1', 4));
    expect(first.deliver).toEqual([]);
    expect(first.request).toEqual({ type: 'replay', stream: 'c1', after_seq: 1 });
    expect(book.accept(event('c1', 5)).request).toBeUndefined();
    const filled = book.applyReplay({ stream: 'c1', events: [event('c1', 3), event('c1', 2), event('c1', 4)], latest_seq: 5, complete: true });
    expect(seqs(filled.deliver)).toEqual(['c1:2', 'c1:3', 'c1:4', 'c1:5']);
    expect(filled.missed).toBe(false);
    expect(book.lastSeq('c1')).toBe(5);
  });

  it('after a reconnect, asks each known stream for what came after its last delivered seq', () => {
    const book = createReplayBook();
    book.accept(event('system', 2));
    book.accept(event('c1', 10));
    book.accept(event('c1', 11));
    expect(book.reconnectRequests()).toEqual([
      { type: 'replay', stream: 'system', after_seq: 2 },
      { type: 'replay', stream: 'c1', after_seq: 11 },
    ]);
    const answer = book.applyReplay({ stream: 'c1', events: [event('c1', 12), event('c1', 13)], latest_seq: 13, complete: true });
    expect(seqs(answer.deliver)).toEqual(['c1:12', 'c1:13']);
    // A live copy of a replayed event arriving late is not delivered twice.
    expect(book.accept(event('c1', 13)).deliver).toEqual([]);
  });

  it('reports missed events when the replay no longer reaches back, and carries on from what it has', () => {
    const book = createReplayBook();
    book.accept(event('c1', 1));
    const answer = book.applyReplay({ stream: 'c1', events: [event('c1', 600), event('c1', 601)], latest_seq: 601, complete: false });
    expect(answer.missed).toBe(true);
    expect(seqs(answer.deliver)).toEqual(['c1:600', 'c1:601']);
    expect(seqs(book.accept(event('c1', 602)).deliver)).toEqual(['c1:602']);
  });

  it('starts a stream over when the daemon restarted and numbers from 1 again', () => {
    const book = createReplayBook();
    book.accept(event('system', 40));
    const answer = book.applyReplay({ stream: 'system', events: [], latest_seq: 0, complete: false });
    expect(answer.missed).toBe(true);
    expect(seqs(book.accept(event('system', 1)).deliver)).toEqual(['system:1']);
  });

  it('never stalls behind a hole that a complete replay did not fill', () => {
    const book = createReplayBook();
    book.accept(event('c1', 1));
    book.accept(event('c1', 5));
    const answer = book.applyReplay({ stream: 'c1', events: [event('c1', 2)], latest_seq: 2, complete: true });
    expect(answer.missed).toBe(true);
    expect(seqs(answer.deliver)).toEqual(['c1:2', 'c1:5']);
  });
});

describe('reconnect backoff', () => {
  it('grows from 250 ms, doubles, caps at 5 s, and jitters within the upper half', () => {
    expect(reconnectDelay(0, () => 1)).toBe(250);
    expect(reconnectDelay(0, () => 0)).toBe(125);
    expect(reconnectDelay(3, () => 1)).toBe(2000);
    expect(reconnectDelay(20, () => 1)).toBe(5000);
    expect(reconnectDelay(20, () => 0)).toBe(2500);
  });
});
