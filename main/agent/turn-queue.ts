/**
 * One FIFO turn at a time per conversation; different conversations run concurrently (reference §1.2
 * "Gateway.Queue"). A failing job never blocks the ones queued behind it.
 */
export function createTurnQueue() {
  const tails = new Map<string, Promise<void>>();
  const depth = new Map<string, number>();
  return {
    /** Queue `job` behind the conversation's current work; resolves when the job has run. */
    enqueue(key: string, job: () => Promise<void>): Promise<void> {
      const previous = tails.get(key) ?? Promise.resolve();
      depth.set(key, (depth.get(key) ?? 0) + 1);
      const run = previous.then(job).finally(() => {
        const left = (depth.get(key) ?? 1) - 1;
        if (left === 0) depth.delete(key);
        else depth.set(key, left);
      });
      const tail = run.catch(() => {});
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return run;
    },
    /** Jobs queued or running for the conversation. */
    depth(key: string): number {
      return depth.get(key) ?? 0;
    },
    /** Resolves when every queued job has finished. */
    async idle(): Promise<void> {
      while (tails.size > 0) await Promise.all([...tails.values()]);
    },
  };
}
