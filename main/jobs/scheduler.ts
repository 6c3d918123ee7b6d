/**
 * The scheduler: only the daemon schedules (it is created by the composition root and nowhere else).
 * On each tick it expires jobs, disables jobs whose schedule no longer parses, skips recurring runs more
 * than the freshness window late (the schedule advances), and claims due jobs — each claim one
 * transaction with its run row (job-store.ts) — up to MAX_CONCURRENT_RUNS at once. Due jobs beyond the
 * cap stay `scheduled` until a slot frees. run_job_now is not capped and is tagged `manual`.
 *
 * The clock is injected (clock.ts): tests advance a manual clock instead of waiting.
 */
import { FermixError, isFermixError } from '../core/errors.js';
import type { JobClock } from './clock.js';
import type { JobRow, JobState, JobStore, RunRow } from './job-store.js';
import { isRecurring, nextRunAfter, parseSchedule } from './schedule.js';

/** Reference §6 (Jobs): ≤4 concurrent runs; freshness window 3,600 s. */
export const MAX_CONCURRENT_RUNS = 4;
export const FRESHNESS_WINDOW_MS = 3_600_000;
// The tick interval is not documented upstream (reference §7); a timer never sleeps longer than this so a
// suspended laptop or a changed wall clock is noticed within a minute.
export const MAX_TIMER_MS = 60_000;

export type RunOutcome = Parameters<JobStore['finishRun']>[1];

export interface SchedulerLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface SchedulerOptions {
  store: JobStore;
  clock: JobClock;
  /** Runs one claimed run to its outcome (runner.ts); never throws for a failed run. */
  execute(job: JobRow, run: RunRow): Promise<RunOutcome>;
  /** The run's whole prompt (job prompt + date + task), snapshotted on the run row at claim. */
  promptFor(job: JobRow, at: number): string;
  logger?: SchedulerLogger;
  /** A job or run changed (claimed, finished, skipped, expired): the window refreshes. */
  onChange?(jobId: string): void;
  /** A run's row is final: deliver its answer (delivery.ts). */
  onFinished?(job: JobRow, run: RunRow): void;
  maxConcurrent?: number;
  freshnessMs?: number;
}

const quiet: SchedulerLogger = { info: () => {}, warn: () => {} };

export function interruptedOutcome(): RunOutcome {
  return { status: 'error', response: null, silent: false, tool_failures: 0, input_tokens: 0, output_tokens: 0, cost_usd: null, error_code: 'interrupted', error_message: 'The daemon stopped before this run finished; it is not run again.', error_hint: 'Run it now with `fermix jobs run-now JOB_ID` if it is still wanted.' };
}

export function createScheduler(options: SchedulerOptions) {
  const { store, clock } = options;
  const logger = options.logger ?? quiet;
  const maxConcurrent = options.maxConcurrent ?? MAX_CONCURRENT_RUNS;
  const freshnessMs = options.freshnessMs ?? FRESHNESS_WINDOW_MS;
  const changed = (jobId: string) => options.onChange?.(jobId);
  const inFlight = new Map<string, Promise<void>>();
  let scheduledActive = 0;
  let cancelTimer: (() => void) | null = null;
  let stopped = true;

  function afterRun(job: JobRow): JobState {
    if (job.schedule && !isRecurringText(job)) return 'done';
    if (job.expires_at !== null && job.expires_at <= clock.now()) return 'expired';
    return 'scheduled';
  }

  function isRecurringText(job: JobRow): boolean {
    try {
      return isRecurring(parseSchedule(job.schedule, job.timezone));
    } catch {
      return false;
    }
  }

  function launch(job: JobRow, run: RunRow, capped: boolean): Promise<void> {
    if (capped) scheduledActive += 1;
    changed(job.id);
    const work = (async () => {
      let outcome: RunOutcome;
      try {
        outcome = await options.execute(job, run);
      } catch (error) {
        const wire = isFermixError(error) ? error.toWire() : { code: 'run_failed', message: String((error as Error)?.message ?? error), hint: 'See `fermix logs -n 50`.' };
        outcome = { status: 'error', response: null, silent: false, tool_failures: 0, input_tokens: 0, output_tokens: 0, cost_usd: null, error_code: wire.code, error_message: wire.message, error_hint: wire.hint };
      }
      try {
        const finished = store.finishRun(run.id, outcome, afterRun(store.get(job.id) ?? job));
        options.onFinished?.(store.get(job.id) ?? job, finished);
      } catch (error) {
        // The store closed under a stopping daemon: the next start marks this run interrupted.
        logger.warn('job run could not be recorded', { job_id: job.id, run_id: run.id, error: String(error) });
      }
      logger.info('job run finished', { job_id: job.id, run_id: run.id, trigger: run.trigger, status: outcome.status, error_code: outcome.error_code });
    })().finally(() => {
      if (capped) scheduledActive -= 1;
      inFlight.delete(run.id);
      changed(job.id);
      if (!stopped) tick();
    });
    inFlight.set(run.id, work);
    return work;
  }

  function tick(): void {
    if (stopped) return;
    const now = clock.now();
    for (const job of store.due(now)) {
      if (job.expires_at !== null && job.expires_at <= now) {
        store.update(job.id, { state: 'expired', next_run_at: null });
        changed(job.id);
        continue;
      }
      let schedule;
      try {
        schedule = parseSchedule(job.schedule, job.timezone);
      } catch (error) {
        // Reference §2.8: a schedule that can no longer be parsed moves the job to disabled with last_error.
        store.update(job.id, { state: 'disabled', last_error: (error as Error).message });
        logger.warn('job disabled: its schedule no longer parses', { job_id: job.id });
        changed(job.id);
        continue;
      }
      if (scheduledActive >= maxConcurrent) break;
      const due = job.next_run_at!;
      const recurring = isRecurring(schedule);
      if (recurring && now - due > freshnessMs) {
        store.update(job.id, { next_run_at: nextRunAfter(schedule, due, now) });
        logger.info('job run skipped: more than the freshness window late', { job_id: job.id, due: new Date(due).toISOString(), late_ms: now - due });
        changed(job.id);
        continue;
      }
      const claimed = store.claim(job.id, { trigger: 'schedule', from: ['scheduled'], scheduledFor: due, nextRunAt: recurring ? nextRunAfter(schedule, due, now) : null, prompt: options.promptFor(job, now) });
      if (claimed) void launch(claimed.job, claimed.run, true);
    }
    arm();
  }

  function arm(): void {
    cancelTimer?.();
    cancelTimer = null;
    if (stopped) return;
    const next = store.nextDue();
    if (next === null) return;
    const now = clock.now();
    // At the cap a due job waits for a slot (a finishing run ticks again), not for a busy timer.
    if (next <= now && scheduledActive >= maxConcurrent) return;
    cancelTimer = clock.setTimer(tick, Math.min(Math.max(0, next - now), MAX_TIMER_MS));
  }

  return {
    /** Marks runs a previous process left unfinished (never re-run) and starts ticking. */
    start(): number {
      const stale = store.unfinishedRuns();
      for (const run of stale) {
        const job = store.get(run.job_id);
        store.finishRun(run.id, interruptedOutcome(), job ? afterRun(job) : 'scheduled');
      }
      if (stale.length > 0) logger.warn('job runs interrupted by a daemon stop', { count: stale.length });
      stopped = false;
      tick();
      return stale.length;
    },
    tick,
    /** A job was created or changed: the timer re-arms for the earliest due time. */
    wake(): void {
      if (!stopped) tick();
    },
    /** run_job_now: not capped, tagged manual; refuses paused, disabled, expired and running jobs. */
    runNow(jobId: string): { job: JobRow; run: RunRow; done: Promise<void> } {
      const job = store.get(jobId);
      if (!job) throw jobNotFound(jobId);
      if (job.state === 'running') throw new FermixError({ code: 'already_running', message: `Job ${jobId} already has a queued or running run.`, hint: `Wait for it to finish; \`fermix jobs runs ${jobId}\` shows it.`, data: { job_id: jobId } });
      if (job.state === 'paused' || job.state === 'disabled') throw new FermixError({ code: 'not_runnable', message: `Job ${jobId} is ${job.state}.`, hint: job.state === 'paused' ? `Resume it first: \`fermix jobs resume ${jobId}\`.` : `Fix its schedule with update_job; its last error: ${job.last_error ?? 'none'}.`, data: { job_id: jobId, state: job.state } });
      if (job.state === 'expired' || job.state === 'done' || (job.expires_at !== null && job.expires_at <= clock.now())) {
        throw new FermixError({ code: 'expired', message: `Job ${jobId} is past its expiry or was a one-off that already ran.`, hint: 'Schedule a new job with schedule_job (or the Jobs screen).', data: { job_id: jobId } });
      }
      const recurring = isRecurringText(job);
      const claimed = store.claim(jobId, { trigger: 'manual', from: ['scheduled'], scheduledFor: null, nextRunAt: recurring ? job.next_run_at : null, prompt: options.promptFor(job, clock.now()) });
      if (!claimed) throw new FermixError({ code: 'already_running', message: `Job ${jobId} was claimed by another run.`, hint: `\`fermix jobs runs ${jobId}\` shows it.`, data: { job_id: jobId } });
      return { ...claimed, done: launch(claimed.job, claimed.run, false) };
    },
    activeRuns: () => inFlight.size,
    /** Waits for the runs in flight (tests, and an orderly stop after the agent interrupted them). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
    },
    stop(): void {
      stopped = true;
      cancelTimer?.();
      cancelTimer = null;
    },
  };
}

export function jobNotFound(jobId: string): FermixError {
  return new FermixError({ code: 'not_found', message: `No job has the id ${jobId}.`, hint: 'List the jobs with `fermix jobs list` (or list_jobs) and use one of their ids.', data: { job_id: jobId } });
}

export type Scheduler = ReturnType<typeof createScheduler>;
