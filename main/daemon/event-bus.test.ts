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
