import { describe, expect, it } from 'vitest';
import { createEventBus } from './event-bus.js';

describe('event bus', () => {
  it('numbers events per stream and replays what came after a seq', () => {
    const bus = createEventBus();
    const seen: number[] = [];
    bus.subscribe((event) => seen.push(event.seq));
    bus.emit('a', 'conversation.created', { id: 'a', title: 'one' });
    bus.emit('b', 'conversation.created', { id: 'b', title: 'two' });
    bus.emit('a', 'conversation.updated', { id: 'a', title: 'three' });
    expect(seen).toEqual([1, 1, 2]);
    expect(bus.replay('a', 1)).toMatchObject({ latest_seq: 2, complete: true, events: [{ seq: 2, payload: { title: 'three' } }] });
  });

  it('says when the buffer no longer reaches back, so the client reloads history', () => {
    const bus = createEventBus({ perStream: 3 });
    for (let index = 0; index < 10; index += 1) bus.emit('a', 'conversation.updated', { id: 'a', title: String(index) });
    const replay = bus.replay('a', 2);
    expect(replay.complete).toBe(false);
    expect(replay.events.map((event) => event.seq)).toEqual([8, 9, 10]);
    expect(bus.replay('a', 7).complete).toBe(true);
  });

  it('refuses a payload that does not match its schema', () => {
    const bus = createEventBus();
    expect(() => bus.emit('a', 'conversation.created', { id: 1 } as never)).toThrow();
  });

  it('keeps delivering when one subscriber throws', () => {
    const bus = createEventBus();
    const seen: string[] = [];
    bus.subscribe(() => {
      throw new Error('broken window');
    });
    bus.subscribe((event) => seen.push(event.type));
    bus.emit('s', 'daemon.stopping', { reason: 'test' });
    expect(seen).toEqual(['daemon.stopping']);
  });
});

describe('event bus byte budget', () => {
  it('drops the oldest events of the least recently used streams first, and replay says so', () => {
    const bus = createEventBus({ maxBytes: 40_000 });
    const text = 'x'.repeat(5_000); // ~10 KB each as counted
    bus.emit('old', 'chat.delta', { turn_id: 't', text });
    bus.emit('old', 'chat.delta', { turn_id: 't', text });
    bus.emit('new', 'chat.delta', { turn_id: 'u', text });
    expect(bus.replay('old', 0)).toMatchObject({ complete: true, latest_seq: 2 });
    bus.emit('new', 'chat.delta', { turn_id: 'u', text }); // past 40,000: "old" pays first
    expect(bus.retainedBytes()).toBeLessThanOrEqual(40_000);
    const old = bus.replay('old', 0);
    expect(old.complete).toBe(false);
    expect(old.latest_seq).toBe(2);
    expect(bus.replay('new', 0)).toMatchObject({ complete: true, latest_seq: 2 });
    // Numbering goes on where it was: a trimmed stream is not a new stream.
    expect(bus.emit('old', 'chat.delta', { turn_id: 't', text: 'small' }).seq).toBe(3);
  });

  it('keeps the newest event of the stream being written even when it alone is over budget', () => {
    const bus = createEventBus({ maxBytes: 1_000 });
    bus.emit('a', 'chat.delta', { turn_id: 't', text: 'y'.repeat(2_000) });
    expect(bus.replay('a', 0).events).toHaveLength(1);
    bus.emit('a', 'chat.delta', { turn_id: 't', text: 'y'.repeat(2_000) });
    expect(bus.replay('a', 0)).toMatchObject({ complete: false });
    expect(bus.replay('a', 1).events.map((e) => e.seq)).toEqual([2]);
  });

  it('counts what it holds back down when events and streams leave', () => {
    const bus = createEventBus({ perStream: 2, maxStreams: 2 });
    for (let index = 0; index < 10; index += 1) bus.emit('a', 'chat.delta', { turn_id: 't', text: 'z'.repeat(100) });
    const perEvent = bus.retainedBytes() / 2;
    bus.emit('b', 'chat.delta', { turn_id: 't', text: 'z'.repeat(100) });
    bus.emit('c', 'chat.delta', { turn_id: 't', text: 'z'.repeat(100) }); // "a" is dropped (maxStreams 2)
    expect(bus.retainedBytes()).toBe(perEvent * 2);
  });
});
