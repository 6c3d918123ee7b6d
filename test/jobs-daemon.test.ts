/**
 * The "done when": a job created in chat runs once at its time — with a controllable clock,
 * no waiting — and its result appears in the app (the Jobs inbox conversation and a job.run_finished
 * event); `fermix jobs` reads and drives it over the control socket. A real daemon (in process, so the
 * test owns its clock) and the scripted model server speaking the OpenAI wire format.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../main/api/events.js';
import { startDaemon, type RunningDaemon } from '../main/daemon/compose.js';
import { createManualClock, type ManualClock } from '../main/jobs/clock.js';
import { lastUserText, messagesOf, startModelServer, toolNamesOf, toolResultsOf, type ModelServer } from './fixtures/model-server/index.js';
import { runFermixAsync, tempHome, waitFor } from './support/daemon-process.js';

const CALL = { transport: 'socket' as const, trust: 'operator' as const };
let server: ModelServer;
let daemon: RunningDaemon;
let clock: ManualClock;
let home: string;
const events: EventEnvelope[] = [];

const runFermix = (args: string[]) => runFermixAsync(home, args);

async function dispatch(method: string, input: unknown = {}): Promise<any> {
  const answer = await daemon.dispatcher.dispatch(method, input, CALL);
  if (!answer.ok) throw Object.assign(new Error(`${answer.error.code}: ${answer.error.message}`), { code: answer.error.code });
  return answer.result;
}

/**
 * Waits for a chat turn to end and insists it completed. schedule_job is read_write, so the default
 * permission mode asks: the test answers the card once, as the person at the window would.
 */
async function turnCompleted(turnId: string): Promise<void> {
  await waitFor(async () => {
    for (const card of (await dispatch('approvals.list')).pending) {
      expect(card.capability).toBe('schedule_job');
      await dispatch('approvals.answer', { id: card.id, answer: 'once' });
    }
    return !['queued', 'running', 'parked'].includes((await dispatch('chat.turn', { turn_id: turnId })).status);
  }, 30_000, 'the chat turn');
  const turn = await dispatch('chat.turn', { turn_id: turnId });
  expect(turn.status, JSON.stringify(turn.error)).toBe('completed');
}

beforeAll(async () => {
  server = await startModelServer();
  home = tempHome('fermix-jobs-daemon-');
  writeFileSync(join(home, 'config.toml'), `[fermix_core]\nsecret_store = "file"\n\n[providers.local]\ntype = "openai-compatible"\nbase_url = "${server.baseUrlOpenAI}"\nmodel = "qwen3"\nprimary = true\n`);
  clock = createManualClock(Date.parse('2026-06-01T09:00:00Z'));
  daemon = await startDaemon({ home, port: 0, jobsClock: clock });
  daemon.events.subscribe((event) => void events.push(event));
});
afterAll(async () => {
  await daemon?.stop('test over');
  await server?.close();
});

// Several approved turns per test: room for a loaded two-core CI machine.
describe('scheduled jobs in a real daemon with a controllable clock', { timeout: 90_000 }, () => {
  it('a job created in chat runs once at its time; the result lands in the Jobs conversation and as an event', async () => {
    const at = new Date(clock.now() + 5 * 60_000).toISOString();
    server.setScript((request) => {
      const user = lastUserText(request);
      if (user.includes('You are running the scheduled job')) return { text: 'Time to stretch: stand up for two minutes.' };
      if (toolResultsOf(request).length > 0) return { text: 'Done: I will remind you.' };
      return { toolCalls: [{ name: 'schedule_job', arguments: { name: 'Stretch', schedule: at, task: 'Remind the owner to stand up and stretch.' } }] };
    });
    const sent = await dispatch('chat.send', { message: 'in five minutes remind me to stretch' });
    await turnCompleted(sent.turn_id);
    const [job] = (await dispatch('jobs.list')).jobs;
    expect(job).toMatchObject({ id: 'stretch', state: 'scheduled', trust: 'operator', role: 'operator', next_run_at: at, delivery_mode: 'origin', timeout_seconds: 1800 });

    clock.advance(4 * 60_000);
    expect((await dispatch('jobs.runs', { job_id: 'stretch' })).runs).toHaveLength(0);
    clock.advance(60_000);
    await waitFor(() => events.some((event) => event.type === 'job.run_finished'), 30_000, 'the job run to finish');
    const finished = events.find((event) => event.type === 'job.run_finished')!.payload as any;
    expect(finished).toMatchObject({ job_id: 'stretch', status: 'ok', notify: true, conversation_id: 'jobs-inbox', summary: 'Time to stretch: stand up for two minutes.' });

    // The run was a fresh, unattended turn: only its own prompt (no chat history), no folder requests offered.
    const jobRequest = server.requests.find((request) => lastUserText(request).includes('You are running the scheduled job'))!;
    expect(messagesOf(jobRequest).filter((message) => message.role === 'user')).toHaveLength(1);
    expect(toolNamesOf(jobRequest)).not.toContain('request_directory_access');
    const [run] = (await dispatch('jobs.runs', { job_id: 'stretch' })).runs;
    expect(run).toMatchObject({ status: 'ok', trigger: 'schedule', response: 'Time to stretch: stand up for two minutes.', tool_failures: 0, silent: false });
    expect(run.usage.input_tokens).toBeGreaterThan(0);

    // In the app: the Jobs conversation holds the result; the run's own conversation is not in the list.
    const { conversations } = await dispatch('conversations.list');
    expect(conversations.map((each: any) => each.title)).toContain('Jobs');
    expect(conversations.map((each: any) => each.title)).not.toContain('Job · Stretch');
    const inbox = await dispatch('conversations.get', { id: 'jobs-inbox' });
    expect(inbox.messages.at(-1).content).toContain('Time to stretch: stand up for two minutes.');

    // Once: a day later it has not run again, and the one-off is done.
    clock.advance(24 * 3_600_000);
    expect((await dispatch('jobs.runs', { job_id: 'stretch' })).runs).toHaveLength(1);
    expect((await dispatch('jobs.list')).jobs[0].state).toBe('done');
  });

  it('fermix jobs list|runs|pause|resume|run-now|remove drive the daemon; [SILENT] delivers nothing', async () => {
    server.setScript((request) => {
      if (lastUserText(request).includes('You are running the scheduled job')) return { text: '[SILENT]' };
      if (toolResultsOf(request).length > 0) return { text: 'Scheduled.' };
      return { toolCalls: [{ name: 'schedule_job', arguments: { name: 'Quiet check', schedule: 'every 6 hours', task: 'Check quietly.' } }] };
    });
    const sent = await dispatch('chat.send', { message: 'check quietly every six hours' });
    await turnCompleted(sent.turn_id);

    const help = await runFermix(['jobs', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('fermix jobs runs JOB_ID [--limit N] [--json]');
    expect((await runFermix(['jobs', 'pause'])).code).toBe(2); // usage: a JOB_ID is needed
    const list = await runFermix(['jobs', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/quiet_check\s+scheduled\s+every 6 hours/);
    expect((await runFermix(['jobs', 'pause', 'quiet_check'])).stdout).toContain('Job quiet_check is paused.');
    const refused = await runFermix(['jobs', 'run-now', 'quiet_check', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error.code).toBe('not_runnable');
    expect((await runFermix(['jobs', 'resume', 'quiet_check'])).stdout).toContain('Job quiet_check is scheduled.');

    const inboxBefore = (await dispatch('conversations.get', { id: 'jobs-inbox' })).messages.length;
    const before = events.filter((event) => event.type === 'job.run_finished').length;
    const now = await runFermix(['jobs', 'run-now', 'quiet_check']);
    expect(now.code, now.stderr).toBe(0);
    await waitFor(() => events.filter((event) => event.type === 'job.run_finished').length > before, 30_000, 'the manual run');
    expect(events.filter((event) => event.type === 'job.run_finished').at(-1)!.payload).toMatchObject({ job_id: 'quiet_check', trigger: 'manual', silent: true, notify: false, conversation_id: null });
    expect((await dispatch('conversations.get', { id: 'jobs-inbox' })).messages.length).toBe(inboxBefore);

    const runs = JSON.parse((await runFermix(['jobs', 'runs', 'quiet_check', '--json'])).stdout).result.runs;
    expect(runs).toMatchObject([{ trigger: 'manual', status: 'ok', silent: true }]);
    const removed = await runFermix(['jobs', 'remove', 'quiet_check']);
    expect(removed.stdout).toContain('Removed job quiet_check.');
    expect((await dispatch('jobs.list')).jobs.map((each: any) => each.id)).toEqual(['stretch']);
  });

  it("a run keeps its creator's stamped role and allowed_tools, whatever config says when it runs", async () => {
    const base = `[fermix_core]\nsecret_store = "file"\n\n[providers.local]\ntype = "openai-compatible"\nbase_url = "${server.baseUrlOpenAI}"\nmodel = "qwen3"\nprimary = true\n`;
    writeFileSync(join(home, 'config.toml'), `${base}\n[agents.main]\nrole = "offline"\n\n[roles.offline]\ntools = ["fs", "scheduling"]\n`);
    server.setScript((request) => {
      if (lastUserText(request).includes('You are running the scheduled job')) return { text: 'checked' };
      if (toolResultsOf(request).length > 0) return { text: 'Scheduled.' };
      const name = lastUserText(request).includes('narrow') ? 'Narrow' : 'Offline';
      return { toolCalls: [{ name: 'schedule_job', arguments: { name, schedule: 'every 1 days', task: 'Check.', ...(name === 'Narrow' ? { allowed_tools: ['file_read'] } : {}) } }] };
    });
    await turnCompleted((await dispatch('chat.send', { message: 'offline job' })).turn_id);
    writeFileSync(join(home, 'config.toml'), base); // the main agent is operator again
    await turnCompleted((await dispatch('chat.send', { message: 'narrow job' })).turn_id);
    expect((await dispatch('jobs.list')).jobs.map((job: any) => [job.id, job.role, job.allowed_tools])).toEqual([['stretch', 'operator', null], ['narrow', 'operator', ['file_read']], ['offline', 'offline', null]]); // same clock instant: by id

    const toolsOfRun = async (jobId: string) => {
      const before = server.requests.length;
      await dispatch('jobs.run_now', { job_id: jobId });
      await waitFor(async () => (await dispatch('jobs.runs', { job_id: jobId })).runs[0]?.status === 'ok', 30_000, `the run of ${jobId}`);
      return toolNamesOf(server.requests.slice(before).find((request) => lastUserText(request).includes('You are running the scheduled job'))!);
    };
    const offline = await toolsOfRun('offline');
    expect(offline).toContain('file_read');
    expect(offline).not.toContain('web_fetch');
    expect(offline).not.toContain('shell');
    expect(await toolsOfRun('narrow')).toEqual(['file_read']);
  });

  it('a run past its timeout is stopped and recorded as timeout (the clock, not a wait, reaches it)', async () => {
    server.setScript((request) => {
      // The run streams slowly, so it is still going when the test moves the clock past its timeout.
      if (lastUserText(request).includes('You are running the scheduled job')) return { text: 'a very slow answer that never gets to finish in time', chunks: 20, delayMs: 500 };
      if (toolResultsOf(request).length > 0) return { text: 'Scheduled.' };
      return { toolCalls: [{ name: 'schedule_job', arguments: { name: 'Slow', schedule: 'every 1 days', task: 'Take long.', timeout_seconds: 60 } }] };
    });
    await turnCompleted((await dispatch('chat.send', { message: 'a slow job' })).turn_id);
    await dispatch('jobs.run_now', { job_id: 'slow' });
    await waitFor(async () => (await dispatch('jobs.runs', { job_id: 'slow' })).runs[0]?.status === 'running', 30_000, 'the run to start');
    clock.advance(61_000);
    await waitFor(async () => (await dispatch('jobs.runs', { job_id: 'slow' })).runs[0]?.status === 'error', 30_000, 'the run to be stopped');
    const [run] = (await dispatch('jobs.runs', { job_id: 'slow' })).runs;
    expect(run.error).toMatchObject({ code: 'timeout', message: 'The run was stopped after its timeout of 60 s.' });
    expect((await dispatch('jobs.list')).jobs.find((job: any) => job.id === 'slow').state).toBe('scheduled');
  });

  it('inactivity_timeout_seconds stops a run that makes no progress; any event of the run counts as progress', async () => {
    server.setScript((request) => {
      if (lastUserText(request).includes('You are running the scheduled job')) return { text: 'an answer that trickles in, one small piece every half second, for a long while', chunks: 40, delayMs: 500 };
      if (toolResultsOf(request).length > 0) return { text: 'Scheduled.' };
      return { toolCalls: [{ name: 'schedule_job', arguments: { name: 'Idle', schedule: 'every 1 days', task: 'Trickle.', inactivity_timeout_seconds: 30 } }] };
    });
    await turnCompleted((await dispatch('chat.send', { message: 'an idle job' })).turn_id);
    await dispatch('jobs.run_now', { job_id: 'idle' });
    const latest = async () => (await dispatch('jobs.runs', { job_id: 'idle' })).runs[0];
    await waitFor(async () => (await latest())?.status === 'running', 30_000, 'the run to start');
    const stream = (await latest()).conversation_id as string;
    const seen = () => events.filter((event) => event.stream === stream && event.type === 'chat.delta').length;
    await waitFor(() => seen() > 0, 30_000, 'the first delta');
    clock.advance(20_000);
    const before = seen();
    await waitFor(() => seen() > before, 30_000, 'progress after the clock moved');
    clock.advance(20_000); // 40 s since the run started, but only 20 s since its last progress
    expect((await latest()).status).toBe('running');
    clock.advance(31_000);
    await waitFor(async () => (await latest()).status === 'error', 30_000, 'the idle run to be stopped');
    expect((await latest()).error).toMatchObject({ code: 'inactivity_timeout', message: 'The run made no progress for 30 s and was stopped.' });
  });

  it('a transient provider failure before any tool ran retries the whole run after a backoff on the job clock', async () => {
    let healthy = false;
    let healthyRequests = 0;
    server.setScript((request) => {
      if (lastUserText(request).includes('You are running the scheduled job')) {
        if (!healthy) return { error: 503, message: 'overloaded' };
        healthyRequests += 1;
        return { text: 'made it on the retry' };
      }
      if (toolResultsOf(request).length > 0) return { text: 'Scheduled.' };
      return { toolCalls: [{ name: 'schedule_job', arguments: { name: 'Flaky', schedule: 'every 1 days', task: 'Try.' } }] };
    });
    await turnCompleted((await dispatch('chat.send', { message: 'a flaky job' })).turn_id);
    await dispatch('jobs.run_now', { job_id: 'flaky' });
    const latest = async () => (await dispatch('jobs.runs', { job_id: 'flaky' })).runs[0];
    await waitFor(async () => (await latest())?.conversation_id != null, 30_000, 'the first attempt');
    const first = (await latest()).conversation_id as string;
    await waitFor(() => events.some((event) => event.stream === first && event.type === 'chat.turn_finished'), 30_000, 'the first attempt to fail');
    expect((await latest()).status).toBe('running'); // waiting for its backoff, not failed
    healthy = true;
    await waitFor(async () => {
      if (healthyRequests === 0) clock.advance(30_000); // the backoff is on the job clock
      return (await latest()).status === 'ok';
    }, 30_000, 'the retry to succeed');
    const run = await latest();
    expect(run.response).toBe('made it on the retry');
    expect(run.conversation_id).not.toBe(first);
  });

  it('the scheduling tools answer through the invoke boundary (fermix capabilities call)', async () => {
    const call = (name: string, args: Record<string, unknown>) => daemon.dispatcher.dispatch('capabilities.call', { name, args, interactive: true }, CALL);
    const listed = await call('list_jobs', { state: 'done' });
    expect(listed.ok && (listed.result as any).data.jobs.map((job: any) => job.id)).toEqual(['stretch']);
    const runs = await call('list_job_runs', { job_id: 'stretch', limit: 5 });
    const runId = runs.ok ? (runs.result as any).data.runs[0].id : '';
    const one = await call('get_job_run', { run_id: runId });
    expect(one.ok && (one.result as any).data.run).toMatchObject({ job_id: 'stretch', response: 'Time to stretch: stand up for two minutes.' });
    const missing = await call('get_job_run', { run_id: 'run_nope' });
    expect(!missing.ok && missing.error.code).toBe('not_found');
    // A write tool asks first (read_write); once approved, its own refusal comes back with its tag.
    const pending = call('update_job', { job_id: 'stretch' });
    await waitFor(async () => (await dispatch('approvals.list')).pending.length === 1, 30_000, 'the update_job card');
    await dispatch('approvals.answer', { id: (await dispatch('approvals.list')).pending[0].id, answer: 'once' });
    const empty = await pending;
    expect(!empty.ok && empty.error.code).toBe('empty_update');
  });
});
