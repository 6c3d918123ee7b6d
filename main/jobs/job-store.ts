/**
 * Jobs and job runs in SQLite (migration 9). The invariant of reference §2.8 lives here: a job is
 * `running` only while one of its runs is queued or running, and claiming a job and inserting its run
 * row happen in ONE transaction — so a crash between the claim and the run leaves a queued run row that
 * the next start marks failed (`interrupted`) instead of running it a second time.
 */
import { randomUUID } from 'node:crypto';
import type { Role } from '../core/capabilities/roles.js';
import type { Database } from '../store/database.js';

export const JOB_STATES = ['scheduled', 'running', 'paused', 'disabled', 'expired', 'done'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const RUN_STATUSES = ['queued', 'running', 'ok', 'error'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type RunTrigger = 'schedule' | 'manual';

export interface DeliveryTarget {
  platform: string;
  chat_id?: string;
  channel_id?: string;
  recipient?: string;
  target?: string;
  reply_target?: string;
}

export interface JobRow {
  id: string;
  name: string;
  description: string | null;
  schedule: string;
  timezone: string;
  task: string;
  state: JobState;
  trust: 'operator' | 'guest';
  role: Role;
  allowed_tools: string[] | null;
  skill_name: string | null;
  provider: string | null;
  model: string | null;
  timeout_seconds: number;
  inactivity_timeout_seconds: number | null;
  delivery_mode: 'none' | 'origin' | 'channel' | 'local';
  delivery_target: DeliveryTarget | null;
  origin_conversation_id: string | null;
  expires_at: number | null;
  next_run_at: number | null;
  last_run_at: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface RunRow {
  id: string;
  job_id: string;
  trigger: RunTrigger;
  status: RunStatus;
  scheduled_for: number | null;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  prompt: string;
  conversation_id: string | null;
  turn_id: string | null;
  response: string | null;
  silent: boolean;
  tool_failures: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  error_code: string | null;
  error_message: string | null;
  error_hint: string | null;
}

export type NewJob = Omit<JobRow, 'state' | 'last_run_at' | 'last_error' | 'created_at' | 'updated_at'>;
export type JobPatch = Partial<Pick<JobRow, 'task' | 'schedule' | 'timezone' | 'description' | 'skill_name' | 'provider' | 'model' | 'delivery_mode' | 'delivery_target' | 'next_run_at' | 'state' | 'last_error'>>;

type Raw = Record<string, string | number | null>;

function toJob(raw: Raw): JobRow {
  return {
    ...(raw as unknown as JobRow),
    role: JSON.parse(raw.role as string) as Role,
    allowed_tools: raw.allowed_tools === null ? null : (JSON.parse(raw.allowed_tools as string) as string[]),
    delivery_target: raw.delivery_target === null ? null : (JSON.parse(raw.delivery_target as string) as DeliveryTarget),
  };
}

function toRun(raw: Raw): RunRow {
  return { ...(raw as unknown as RunRow), silent: raw.silent === 1 };
}

const JSON_COLUMNS = new Set(['delivery_target']);

export function createJobStore(db: Database, now: () => number) {
  const iso = () => new Date(now()).toISOString();

  function get(id: string): JobRow | undefined {
    const raw = db.get<Raw>('SELECT * FROM jobs WHERE id = ?', [id]);
    return raw ? toJob(raw) : undefined;
  }

  function insertRun(job: JobRow, trigger: RunTrigger, scheduledFor: number | null, prompt: string): RunRow {
    const id = `run_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    db.run('INSERT INTO job_runs (id, job_id, trigger, status, scheduled_for, queued_at, prompt) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, job.id, trigger, 'queued', scheduledFor, iso(), prompt]);
    return getRun(id)!;
  }

  function getRun(id: string): RunRow | undefined {
    const raw = db.get<Raw>('SELECT * FROM job_runs WHERE id = ?', [id]);
    return raw ? toRun(raw) : undefined;
  }

  return {
    get,
    getRun,
    /** A free id from the name's slug (reference: "slugged into the job id"). */
    freeId(name: string): string {
      const slug = name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 48) || 'job';
      if (!get(slug)) return slug;
      for (;;) {
        const candidate = `${slug}_${randomUUID().slice(0, 4)}`;
        if (!get(candidate)) return candidate;
      }
    },
    insert(job: NewJob): JobRow {
      const time = iso();
      db.run(
        `INSERT INTO jobs (id, name, description, schedule, timezone, task, state, trust, role, allowed_tools, skill_name, provider, model,
          timeout_seconds, inactivity_timeout_seconds, delivery_mode, delivery_target, origin_conversation_id, expires_at, next_run_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'scheduled', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [job.id, job.name, job.description, job.schedule, job.timezone, job.task, job.trust, JSON.stringify(job.role), job.allowed_tools === null ? null : JSON.stringify(job.allowed_tools),
          job.skill_name, job.provider, job.model, job.timeout_seconds, job.inactivity_timeout_seconds, job.delivery_mode, job.delivery_target === null ? null : JSON.stringify(job.delivery_target),
          job.origin_conversation_id, job.expires_at, job.next_run_at, time, time],
      );
      return get(job.id)!;
    },
    update(id: string, patch: JobPatch): JobRow {
      const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
      if (entries.length > 0) {
        const sql = entries.map(([key]) => `${key} = ?`).join(', ');
        const values = entries.map(([key, value]) => (JSON_COLUMNS.has(key) && value !== null ? JSON.stringify(value) : (value as string | number | null)));
        db.run(`UPDATE jobs SET ${sql}, updated_at = ? WHERE id = ?`, [...values, iso(), id]);
      }
      return get(id)!;
    },
    remove(id: string): boolean {
      return db.run('DELETE FROM jobs WHERE id = ?', [id]).changes > 0;
    },
    list(state?: string): JobRow[] {
      const rows = state === undefined ? db.all<Raw>('SELECT * FROM jobs ORDER BY created_at, id') : db.all<Raw>('SELECT * FROM jobs WHERE state = ? ORDER BY created_at, id', [state]);
      return rows.map(toJob);
    },
    /** Scheduled jobs due at `at`, oldest due first. */
    due(at: number): JobRow[] {
      return db.all<Raw>("SELECT * FROM jobs WHERE state = 'scheduled' AND next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, id", [at]).map(toJob);
    },
    /** The earliest future due time of a scheduled job (for the timer). */
    nextDue(): number | null {
      const row = db.get<{ at: number | null }>("SELECT MIN(next_run_at) AS at FROM jobs WHERE state = 'scheduled' AND next_run_at IS NOT NULL");
      return row?.at ?? null;
    },
    /**
     * THE claim: the job goes `running` (from `scheduled`, or from any runnable state for a manual run),
     * its schedule advances, and its run row is inserted, all in one transaction. Null when another claim
     * won (the job is no longer in an expected state).
     */
    claim(jobId: string, input: { trigger: RunTrigger; from: readonly JobState[]; scheduledFor: number | null; nextRunAt: number | null; prompt: string; after?: JobState }): { job: JobRow; run: RunRow } | null {
      return db.transaction(() => {
        const job = get(jobId);
        if (!job || !input.from.includes(job.state)) return null;
        db.run('UPDATE jobs SET state = ?, next_run_at = ?, last_run_at = ?, updated_at = ? WHERE id = ?', ['running', input.nextRunAt, now(), iso(), jobId]);
        const run = insertRun(job, input.trigger, input.scheduledFor, input.prompt);
        return { job: get(jobId)!, run };
      });
    },
    startRun(runId: string, links: { conversation_id: string; turn_id: string }): void {
      db.run("UPDATE job_runs SET status = 'running', started_at = ?, conversation_id = ?, turn_id = ? WHERE id = ?", [iso(), links.conversation_id, links.turn_id, runId]);
    },
    /** Ends a run and releases its job (back to `after`, unless it was paused/removed meanwhile), in one transaction. */
    finishRun(runId: string, outcome: Pick<RunRow, 'status' | 'response' | 'silent' | 'tool_failures' | 'input_tokens' | 'output_tokens' | 'cost_usd' | 'error_code' | 'error_message' | 'error_hint'>, after: JobState): RunRow {
      return db.transaction(() => {
        db.run(
          'UPDATE job_runs SET status = ?, finished_at = ?, response = ?, silent = ?, tool_failures = ?, input_tokens = ?, output_tokens = ?, cost_usd = ?, error_code = ?, error_message = ?, error_hint = ? WHERE id = ?',
          [outcome.status, iso(), outcome.response, outcome.silent ? 1 : 0, outcome.tool_failures, outcome.input_tokens, outcome.output_tokens, outcome.cost_usd, outcome.error_code, outcome.error_message, outcome.error_hint, runId],
        );
        const run = getRun(runId)!;
        db.run("UPDATE jobs SET state = ?, last_error = ?, updated_at = ? WHERE id = ? AND state = 'running'", [after, outcome.error_message, iso(), run.job_id]);
        return run;
      });
    },
    runs(jobId: string, options: { status?: RunStatus; limit: number }): RunRow[] {
      const where = options.status ? 'AND status = ?' : '';
      const params = options.status ? [jobId, options.status, options.limit] : [jobId, options.limit];
      return db.all<Raw>(`SELECT * FROM job_runs WHERE job_id = ? ${where} ORDER BY queued_at DESC, rowid DESC LIMIT ?`, params).map(toRun);
    },
    /** Runs left queued or running by a previous process: marked failed, never run again. */
    unfinishedRuns(): RunRow[] {
      return db.all<Raw>("SELECT * FROM job_runs WHERE status IN ('queued', 'running')").map(toRun);
    },
  };
}

export type JobStore = ReturnType<typeof createJobStore>;
