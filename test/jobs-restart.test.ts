/**
 * Quitting stops the daemon and its jobs; the next start applies the freshness rule (reference §2.8):
 * a recurring run more than an hour late is skipped and its schedule advances, a one-off runs late,
 * and a run the stop interrupted is recorded, never run again. Two in-process daemons on one home,
 * each with its own manual clock.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { createManualClock } from '../main/jobs/clock.js';
import { lastUserText, startModelServer, toolResultsOf, type ModelServer } from './fixtures/model-server/index.js';
import { tempHome, waitFor } from './support/daemon-process.js';

const CALL = { transport: 'socket' as const, trust: 'operator' as const };
const START = Date.parse('2026-06-01T09:00:00Z');
const HOUR = 3_600_000;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server?.close());

async function call(daemon: RunningDaemon, method: string, input: unknown = {}): Promise<any> {
  const answer = await daemon.dispatcher.dispatch(method, input, CALL);
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return answer.result;
}

describe('jobs across a daemon stop and start', { timeout: 120_000 }, () => {
  it('skips a recurring run more than an hour late, runs a late one-off, and never re-runs an interrupted run', async () => {
    const home = tempHome('fermix-jobs-restart-');
    writeFileSync(join(home, 'config.toml'), `[fermix_core]\nsecret_store = "file"\n\n[providers.local]\ntype = "openai-compatible"\nbase_url = "${server.baseUrlOpenAI}"\nmodel = "qwen3"\nprimary = true\n`);
    const jobs = [
      { name: 'Hourly', schedule: 'every 1 hours', task: 'hourly' },
      { name: 'Once', schedule: new Date(START + 2 * HOUR).toISOString(), task: 'once' },
      { name: 'Slow', schedule: 'every 1 days', task: 'slow' },
    ];
    let created = 0;
    server.setScript((request) => {
      const user = lastUserText(request);
      if (user.includes('You are running the scheduled job')) {
        // The slow run is still streaming when the daemon quits.
        return user.includes('slow') ? { text: 'a long answer that the stop cuts short', chunks: 40, delayMs: 500 } : { text: `ran ${user.split('\n').at(-1)}` };
      }
      if (toolResultsOf(request).length > 0) return { text: 'Scheduled.' };
      return { toolCalls: [{ name: 'schedule_job', arguments: jobs[created++] }] };
    });

    let daemon = await startDaemon({ home, port: 0, jobsClock: createManualClock(START) });
    try {
      for (let index = 0; index < jobs.length; index += 1) {
        const sent = await call(daemon, 'chat.send', { message: `job ${index}` });
        await waitFor(async () => {
          for (const card of (await call(daemon, 'approvals.list')).pending) await call(daemon, 'approvals.answer', { id: card.id, answer: 'once' });
          return (await call(daemon, 'chat.turn', { turn_id: sent.turn_id })).status === 'completed';
        }, 30_000, `job ${index} to be created`);
      }
      await call(daemon, 'jobs.run_now', { job_id: 'slow' });
      await waitFor(async () => (await call(daemon, 'jobs.runs', { job_id: 'slow' })).runs[0]?.status === 'running', 30_000, 'the slow run to start');
    } finally {
      await daemon.stop('quit from the tray');
    }

    // Three hours later (past the hourly job's 10:00, 11:00 and the one-off's 11:00).
    daemon = await startDaemon({ home, port: 0, jobsClock: createManualClock(START + 3 * HOUR + 60_000) });
    try {
      await waitFor(async () => (await call(daemon, 'jobs.runs', { job_id: 'once' })).runs[0]?.status === 'ok', 30_000, 'the late one-off to run');
      const list = (await call(daemon, 'jobs.list')).jobs;
      const byId = Object.fromEntries(list.map((job: any) => [job.id, job]));
      expect(byId.hourly).toMatchObject({ state: 'scheduled', next_run_at: new Date(START + 4 * HOUR).toISOString() });
      expect((await call(daemon, 'jobs.runs', { job_id: 'hourly' })).runs).toEqual([]);
      expect(byId.once.state).toBe('done');
      const slow = (await call(daemon, 'jobs.runs', { job_id: 'slow' })).runs;
      expect(slow).toHaveLength(1);
      expect(slow[0].status).toBe('error');
      expect(byId.slow.state).toBe('scheduled');
    } finally {
      await daemon.stop('test over');
    }
  });
});
