/**
 * Line matching for content_search, in a worker thread. Why: a model-written regex can backtrack
 * for minutes on one line (`(a+)+$`), and a regex running on the daemon's main thread cannot be
 * interrupted — the whole daemon would hang and `timeout_ms` would never fire. In a worker,
 * `terminate()` stops it mid-match. (A thread, not a process: nothing here spawns.)
 *
 * The worker source is inline (eval) so it survives bundling without a separate entry file.
 */
import { lazyBuiltin } from '../daemon/lazy-builtin.js';
import type { Worker as WorkerThread } from 'node:worker_threads';

/** Longest part of a line a regex is run on, and longest text returned per match. */
export const MAX_LINE_CHARS = 10_000;
export const MAX_MATCH_TEXT = 500;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, workerData.flags);
const decoder = new TextDecoder('utf-8');
parentPort.on('message', (msg) => {
  const text = decoder.decode(new Uint8Array(msg.buffer));
  const lines = text.split('\\n');
  const out = [];
  for (let i = 0; i < lines.length && out.length < msg.limit; i += 1) {
    let line = lines[i];
    if (line.endsWith('\\r')) line = line.slice(0, -1);
    if (i === lines.length - 1 && line === '') break;
    if (re.test(line.length > ${MAX_LINE_CHARS} ? line.slice(0, ${MAX_LINE_CHARS}) : line)) {
      out.push([i + 1, line.trimEnd().slice(0, ${MAX_MATCH_TEXT})]);
    }
  }
  parentPort.postMessage({ id: msg.id, matches: out });
});
`;

export interface LineMatcher {
  /** 1-based line numbers and texts of matching lines, at most `limit`. Rejects with 'timeout' at the deadline. */
  match(bytes: Buffer, limit: number, deadline: number): Promise<Array<[number, string]>>;
  close(): Promise<void>;
}

// node:worker_threads loads with the first search.
const workerThreads = lazyBuiltin<typeof import('node:worker_threads')>('node:worker_threads');

export class MatchTimeout extends Error {}

/** `source` must already compile (the caller validates it, to answer `invalid_regex` itself). */
export function createLineMatcher(source: string, flags = ''): LineMatcher {
  const { Worker } = workerThreads();
  const worker: WorkerThread = new Worker(WORKER_SOURCE, { eval: true, workerData: { source, flags } });
  worker.unref();
  let nextId = 0;
  let failed: Error | undefined;
  const pending = new Map<number, { resolve: (m: Array<[number, string]>) => void; reject: (e: Error) => void }>();
  const failAll = (error: Error) => {
    failed = error;
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  worker.on('message', (msg: { id: number; matches: Array<[number, string]> }) => {
    pending.get(msg.id)?.resolve(msg.matches);
    pending.delete(msg.id);
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', () => failAll(failed ?? new Error('the matcher stopped')));

  return {
    match(bytes, limit, deadline) {
      if (failed) return Promise.reject(failed);
      const id = (nextId += 1);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          // The only way to stop a runaway regex: kill the thread. The matcher is unusable afterwards.
          failAll(new MatchTimeout('content_search timed out'));
          void worker.terminate();
        }, Math.max(0, deadline - Date.now()));
        pending.set(id, {
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        // Copy into a fresh ArrayBuffer we can transfer (the Buffer may share Node's pool).
        const copy = new Uint8Array(bytes).buffer;
        worker.postMessage({ id, buffer: copy, limit }, [copy]);
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
