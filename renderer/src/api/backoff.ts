/**
 * Reconnect delay: exponential from 250 ms, capped at 5 s (the daemon is local: a `fermix restart` should
 * be noticed within seconds), with jitter so that several windows do not reconnect in lockstep.
 * `random` is injectable for tests.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const base = 250;
  const cap = 5000;
  const exponential = Math.min(cap, base * 2 ** Math.max(0, attempt));
  return Math.round(exponential / 2 + (exponential / 2) * random());
}
