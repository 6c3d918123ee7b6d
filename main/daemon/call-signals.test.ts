import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createCallSignals } from './call-signals.js';

describe('per-call abort signals', () => {
  it('keeps one listener on the lifetime signal however many calls run, and none leak after release', () => {
    const lifetime = new AbortController();
    const signals = createCallSignals(lifetime.signal);
    const before = getEventListeners(lifetime.signal, 'abort').length;
    const calls = Array.from({ length: 50 }, () => signals.open());
    // What each call's code does while it runs (invoker, runner, fetch): a listener on its signal.
    for (const call of calls) call.signal.addEventListener('abort', () => {}, { once: true });
    expect(getEventListeners(lifetime.signal, 'abort').length).toBe(before);
    expect(before).toBe(1);
    expect(signals.size).toBe(50);
    for (const call of calls) call.release();
    expect(signals.size).toBe(0);
  });

  it('aborts every running call with the lifetime reason when the daemon stops, and later calls start aborted', () => {
    const lifetime = new AbortController();
    const signals = createCallSignals(lifetime.signal);
    const running = signals.open();
    const released = signals.open();
    released.release();
    lifetime.abort(new Error('daemon stopped'));
    expect(running.signal.aborted).toBe(true);
    expect((running.signal.reason as Error).message).toBe('daemon stopped');
    expect(released.signal.aborted).toBe(false);
    expect(signals.open().signal.aborted).toBe(true);
  });
});
