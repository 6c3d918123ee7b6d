/**
 * Call pacing for one hosted plugin (reference §2.5): call starts at least `minGapMs` (500 ms, about
 * 120 a minute) apart, in arrival order, with at most `maxQueued` (16) calls waiting; one more is
 * refused at once with `remote_busy` instead of piling up behind a slow or rate-limited service.
 * A call whose signal aborts while it waits leaves the queue. After a 429/503 the service's
 * Retry-After (limits.ts: ≤300 s, 60 s when absent) holds the pacer: until it passes every call is
 * refused at once with `remote_busy`, the remaining wait in its hint, and nothing is sent.
 */
import { FermixError } from '../../../core/errors.js';
import { remoteBusy } from './hosted-fetch.js';

export const HOSTED_PACING = Object.freeze({ minGapMs: 500, maxQueued: 16 });

export function createCallPacer(plugin: string, options: { minGapMs: number; maxQueued: number } = HOSTED_PACING) {
  let nextStart = 0;
  let waiting = 0;
  let chain: Promise<void> = Promise.resolve();
  let heldUntil = 0;

  return {
    waiting: () => waiting,
    /** The service asked for `ms` of quiet (Retry-After). */
    holdOff(ms: number): void {
      heldUntil = Math.max(heldUntil, Date.now() + ms);
    },
    /** Runs `work` in its paced turn. */
    async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (Date.now() < heldUntil) throw remoteBusy(plugin, heldUntil - Date.now(), null);
      if (waiting >= options.maxQueued) {
        throw new FermixError({ code: 'remote_busy', message: `${plugin} already has ${options.maxQueued} calls waiting, so this one was refused.`, hint: 'Wait for the earlier calls to finish, then try again.', data: { plugin, queued: waiting } });
      }
      waiting += 1;
      const turn = chain.then(async () => {
        const delay = nextStart - Date.now();
        if (delay > 0) await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          signal?.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
        });
        nextStart = Date.now() + options.minGapMs;
      });
      chain = turn.catch(() => {});
      try {
        await turn;
      } finally {
        waiting -= 1;
      }
      signal?.throwIfAborted();
      return work();
    },
  };
}
