/**
 * The scheduler's clock: `now()` and a timer source. The daemon uses the system clock; tests use the
 * manual clock, so a job runs "at its time" by advancing the clock instead of waiting for it.
 */
export interface JobClock {
  now(): number;
  /** Calls `fire` after `delayMs` on this clock; returns a cancel function. */
  setTimer(fire: () => void, delayMs: number): () => void;
}

export const systemClock: JobClock = {
  now: () => Date.now(),
  setTimer(fire, delayMs) {
    const handle = setTimeout(fire, Math.max(0, delayMs));
    handle.unref?.();
    return () => clearTimeout(handle);
  },
};

export interface ManualClock extends JobClock {
  /** Moves time forward and fires every timer that fell due, in due order. */
  advance(ms: number): void;
  set(at: number): void;
  pendingTimers(): number;
}

export function createManualClock(start: number): ManualClock {
  let current = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; fire: () => void }>();
  const fireDue = () => {
    for (;;) {
      const due = [...timers.entries()].filter(([, timer]) => timer.at <= current).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) return;
      timers.delete(due[0]);
      due[1].fire();
    }
  };
  return {
    now: () => current,
    setTimer(fire, delayMs) {
      const id = (nextId += 1);
      timers.set(id, { at: current + Math.max(0, delayMs), fire });
      return () => void timers.delete(id);
    },
    advance(ms) {
      current += ms;
      fireDue();
    },
    set(at) {
      current = at;
      fireDue();
    },
    pendingTimers: () => timers.size,
  };
}
