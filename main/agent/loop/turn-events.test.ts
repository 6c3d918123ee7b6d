// The delta emitter's order and flush semantics, driven by a hand-cranked timer (no wall time).
import { describe, expect, it } from 'vitest';
import { createEventBus } from '../../daemon/event-bus.js';
import { createTurnEmitter, type CoalesceTimers } from './turn-events.js';

/** Timers that fire only when the test says so. */
function manualTimers() {
  const scheduled = new Map<number, () => void>();
  let next = 0;
  const timers: CoalesceTimers = {
    set(callback) {
      next += 1;
      scheduled.set(next, callback);
      return next;
    },
    clear(handle) {
      scheduled.delete(handle as number);
    },
  };
  return {
    timers,
    pending: () => scheduled.size,
    /** Ends every open window (as if coalesceMs passed). */
    elapse() {
      const due = [...scheduled.entries()];
      scheduled.clear();
      for (const [, callback] of due) callback();
    },
  };
}

function setup() {
  const bus = createEventBus();
  const clock = manualTimers();
  const errors: unknown[] = [];
  const emitter = createTurnEmitter(bus, 'conv', 'turn-1', (error) => errors.push(error), 25, clock.timers);
  const seen = () => bus.replay('conv', 0).events.map((e) => (e.type === 'chat.delta' ? `delta:${(e.payload as { text: string }).text}` : e.type));
  return { emitter, clock, seen, errors };
}

describe('turn emitter', () => {
  it('sends the first delta of a turn at once, before any later delta is coalesced', () => {
    const { emitter, clock, seen } = setup();
    emitter.delta('Hel');
    // Out already, with no timer having fired.
    expect(seen()).toEqual(['delta:Hel']);
    emitter.delta('lo');
    emitter.delta(', wor');
    expect(seen()).toEqual(['delta:Hel']);
    clock.elapse();
    expect(seen()).toEqual(['delta:Hel', 'delta:lo, wor']);
    // The window reopened after sending: the next delta waits for it.
    emitter.delta('ld');
    expect(seen()).toEqual(['delta:Hel', 'delta:lo, wor']);
    clock.elapse();
    expect(seen()).toEqual(['delta:Hel', 'delta:lo, wor', 'delta:ld']);
  });

  it('after a quiet window the next delta goes out at once again', () => {
    const { emitter, clock, seen } = setup();
    emitter.delta('a');
    clock.elapse(); // nothing pending: the window closes without an event
    expect(clock.pending()).toBe(0);
    emitter.delta('b');
    expect(seen()).toEqual(['delta:a', 'delta:b']);
  });

  it('another event flushes pending text first and the next step starts without delay', () => {
    const { emitter, clock, seen } = setup();
    emitter.delta('I will ');
    emitter.delta('look.');
    emitter.emit('chat.warning', { turn_id: 'turn-1', code: 'provider_fallback', message: 'x' });
    expect(seen()).toEqual(['delta:I will ', 'delta:look.', 'chat.warning']);
    expect(clock.pending()).toBe(0);
    emitter.delta('Done');
    expect(seen()).toEqual(['delta:I will ', 'delta:look.', 'chat.warning', 'delta:Done']);
  });

  it('flush sends what is pending and closes the window; empty deltas send nothing', () => {
    const { emitter, clock, seen } = setup();
    emitter.delta('');
    expect(seen()).toEqual([]);
    emitter.delta('x');
    emitter.delta('y');
    emitter.flush();
    expect(seen()).toEqual(['delta:x', 'delta:y']);
    expect(clock.pending()).toBe(0);
    emitter.flush();
    expect(seen()).toEqual(['delta:x', 'delta:y']);
  });

  it('a rejected event is reported, never thrown into the turn', () => {
    const { emitter, errors } = setup();
    expect(() => emitter.emit('chat.warning', { turn_id: 'turn-1' } as never)).not.toThrow();
    expect(errors).toHaveLength(1);
  });
});
