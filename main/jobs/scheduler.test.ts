import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR_ROLE } from '../core/capabilities/roles.js';
import { openDatabase, type Database } from '../store/database.js';
import { createManualClock, type ManualClock } from './clock.js';
import { createJobStore, type JobRow, type RunRow } from './job-store.js';
import { createScheduler, type RunOutcome } from './scheduler.js';
import { createJobsService } from './service.js';

const START = Date.parse('2026-06-01T10:00:00Z');
const okOutcome = (text: string): RunOutcome => ({ status: 'ok', response: text, silent: false, tool_failures: 0, input_tokens: 3, output_tokens: 2, cost_usd: null, error_code: null, error_message: null, error_hint: null });
const databases: Database[] = [];
afterEach(() => {
  for (const db of databases.splice(0)) db.close();
});

/** A runner whose runs finish only when the test releases them. */
function setUp(file = join(mkdtempSync(join(tmpdir(), 'fermix-jobs-')), 'fermix.db'), clock: ManualClock = createManualClock(START)) {
  const db = openDatabase(file, { ownsDaemonLock: true });
  databases.push(db);
  const store = createJobStore(db, clock.now);
  const started: { job: JobRow; run: RunRow; release: (text: string) => void }[] = [];
  const scheduler = createScheduler({
    store, clock, promptFor: (job) => `task: ${job.task}`,
    execute: (job, run) => new Promise((resolve) => started.push({ job, run, release: (text) => resolve(okOutcome(text)) })),
  });
  const service = createJobsService({ store, scheduler, clock, providers: () => ['local'] });
  const caller = { trust: 'operator' as const, role: OPERATOR_ROLE, visibleTools: ['shell', 'file_read'] };
  return { db, file, clock, store, scheduler, service, started, caller };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the scheduler with a manual clock', () => {
  it('runs a one-off once at its time, then the job is done', async () => {
    const t = setUp();
    t.scheduler.start();
    const job = t.service.create({ name: 'Water plants', schedule: new Date(START + 5 * 60_000).toISOString(), task: 'remind me' }, t.caller);
    expect(job).toMatchObject({ id: 'water_plants', state: 'scheduled', trust: 'operator', role: OPERATOR_ROLE });
    t.clock.advance(4 * 60_000);
    expect(t.started).toHaveLength(0);
    t.clock.advance(60_000);
    expect(t.started).toHaveLength(1);
    expect(t.store.get(job.id)!.state).toBe('running');
    expect(t.started[0].run).toMatchObject({ trigger: 'schedule', status: 'queued', prompt: 'task: remind me' });
    t.started[0].release('watered');
    await t.scheduler.idle();
    t.clock.advance(24 * 3_600_000);
    expect(t.started).toHaveLength(1);
    expect(t.store.get(job.id)!.state).toBe('done');
    expect(t.service.runs(job.id)).toMatchObject([{ status: 'ok', response: 'watered', input_tokens: 3 }]);
  });

  it('a crash between claim and run never runs it twice: the next start marks it interrupted', async () => {
    const first = setUp();
    first.scheduler.start();
    const job = first.service.create({ name: 'digest', schedule: 'every 1 hours', task: 'sum up' }, first.caller);
    first.clock.advance(3_600_000);
    expect(first.started).toHaveLength(1); // claimed, run row queued, then the process "dies"
    first.scheduler.stop();
    first.db.close();
    databases.splice(databases.indexOf(first.db), 1);

    const second = setUp(first.file, createManualClock(START + 3_600_000 + 1_000));
    expect(second.scheduler.start()).toBe(1);
    expect(second.started).toHaveLength(0);
    const [run] = second.service.runs(job.id);
    expect(run).toMatchObject({ status: 'error', error_code: 'interrupted' });
    expect(second.store.get(job.id)!.state).toBe('scheduled');
    expect(second.store.get(job.id)!.next_run_at).toBe(START + 2 * 3_600_000);
  });

  it('at most 4 runs at once; the fifth due job waits, scheduled, for a free slot', async () => {
    const t = setUp();
    t.scheduler.start();
    for (let index = 0; index < 5; index += 1) t.service.create({ name: `job ${index}`, schedule: 'every 10 minutes', task: `t${index}` }, t.caller);
    t.clock.advance(10 * 60_000);
    expect(t.started).toHaveLength(4);
    expect(t.store.list('scheduled')).toHaveLength(1);
    t.started[0].release('done');
    await settle();
    await settle();
    expect(t.started).toHaveLength(5);
    for (const each of t.started.slice(1)) each.release('done');
    await t.scheduler.idle();
  });

  it('a recurring run more than an hour late is skipped and the schedule advances; a late one-off runs', async () => {
    const t = setUp();
    const recurring = t.service.create({ name: 'hourly', schedule: 'every 1 hours', task: 'x' }, t.caller);
    const once = t.service.create({ name: 'once', schedule: new Date(START + 3_600_000).toISOString(), task: 'y' }, t.caller);
    // The daemon was down (not ticking) for 3 h: the next start applies the freshness rule.
    t.clock.set(START + 4 * 3_600_000 + 60_000);
    t.scheduler.start();
    expect(t.started.map((each) => each.job.id)).toEqual([once.id]);
    expect(t.store.get(recurring.id)).toMatchObject({ state: 'scheduled', next_run_at: START + 5 * 3_600_000 });
    t.started[0].release('late but ran');
    await t.scheduler.idle();
  });

  it('run_job_now is tagged manual and refuses paused, running and done jobs', async () => {
    const t = setUp();
    t.scheduler.start();
    const job = t.service.create({ name: 'watch', schedule: 'every 6 hours', task: 'x' }, t.caller);
    t.service.pause(job.id);
    expect(() => t.service.runNow(job.id)).toThrow(expect.objectContaining({ code: 'not_runnable' }));
    t.service.resume(job.id);
    const { run } = t.service.runNow(job.id);
    expect(run.trigger).toBe('manual');
    expect(() => t.service.runNow(job.id)).toThrow(expect.objectContaining({ code: 'already_running' }));
    expect(() => t.service.remove(job.id)).toThrow(expect.objectContaining({ code: 'job_running' }));
    t.started[0].release('now');
    await t.scheduler.idle();
    expect(t.store.get(job.id)).toMatchObject({ state: 'scheduled', next_run_at: START + 6 * 3_600_000 });
    expect(t.service.remove(job.id)).toEqual({ removed: true, job_id: job.id });
  });

  it('creation refuses what the caller cannot stamp or see', () => {
    const t = setUp();
    const base = { name: 'n', schedule: 'every 1 days', task: 't' };
    expect(() => t.service.create(base, { ...t.caller, trust: null })).toThrow(expect.objectContaining({ code: 'no_source_trust' }));
    expect(() => t.service.create({ ...base, allowed_tools: ['shell', 'browser'] }, t.caller)).toThrow(expect.objectContaining({ code: 'unknown_tools' }));
    expect(() => t.service.create({ ...base, provider: 'local' }, t.caller)).toThrow(expect.objectContaining({ code: 'invalid_route_pin' }));
    expect(() => t.service.create({ ...base, provider: 'nowhere', model: 'm' }, t.caller)).toThrow(expect.objectContaining({ code: 'invalid_route_pin', message: 'No provider named nowhere is configured.' }));
    expect(() => t.service.create({ ...base, provider: 'local', model: 'm' }, t.caller)).toThrow(expect.objectContaining({ code: 'invalid_route_pin', message: expect.stringContaining('cannot pin a job') }));
    expect(() => t.service.create({ ...base, expires_at: new Date(START - 1).toISOString() }, t.caller)).toThrow(expect.objectContaining({ code: 'invalid_expiry' }));
    expect(() => t.service.create({ ...base, timezone: 'Nowhere/Land', schedule: '0 8 * * *' }, t.caller)).toThrow(expect.objectContaining({ code: 'invalid_timezone' }));
    expect(() => t.service.create({ ...base, skill_name: 'ghost' }, t.caller)).toThrow(expect.objectContaining({ code: 'unknown_skill', message: 'No loaded skill is named ghost.' }));
    expect(() => t.service.create({ ...base, delivery_mode: 'channel' }, t.caller)).toThrow(expect.objectContaining({ code: 'invalid_delivery' }));
    expect(() => t.service.update({ job_id: t.service.create(base, t.caller).id })).toThrow(expect.objectContaining({ code: 'empty_update' }));
    expect(t.service.create({ ...base, allowed_tools: ['file_read'] }, { ...t.caller, trust: 'guest' })).toMatchObject({ trust: 'guest', allowed_tools: ['file_read'] });
  });
});
