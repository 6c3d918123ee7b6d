/**
 * The jobs service: what the nine scheduling tools, the jobs.* API methods and `fermix jobs` call.
 * Creation stamps the CALLER's trust and role on the job — the model only supplies the brief and the
 * schedule, never the policy — and allowed_tools may only narrow what the caller can already see.
 */
import type { Role } from '../core/capabilities/roles.js';
import { FermixError } from '../core/errors.js';
import type { JobClock } from './clock.js';
import type { DeliveryTarget, JobRow, JobStore, RunRow, RunStatus } from './job-store.js';
import { jobNotFound, type Scheduler } from './scheduler.js';
import { checkTimezone, firstRunAt, isRecurring, nextRunAfter, parseSchedule } from './schedule.js';

export const DEFAULT_TIMEOUT_SECONDS = 1800;
export const RUNS_DEFAULT_LIMIT = 20;
export const RUNS_MAX_LIMIT = 100;

export interface JobCaller {
  trust: 'operator' | 'guest' | null | undefined;
  role: Role;
  /** Names of the tools the caller may use now (allowed_tools must be a subset). */
  visibleTools: readonly string[];
  conversationId?: string;
}

export interface CreateJobInput {
  name: string;
  schedule: string;
  task: string;
  timezone?: string;
  description?: string;
  expires_at?: string;
  delivery_mode?: JobRow['delivery_mode'];
  delivery_target?: DeliveryTarget;
  allowed_tools?: string[];
  skill_name?: string;
  provider?: string;
  model?: string;
  timeout_seconds?: number;
  inactivity_timeout_seconds?: number;
}

export interface UpdateJobInput {
  job_id: string;
  task?: string;
  schedule?: string;
  description?: string;
  skill_name?: string;
  provider?: string;
  model?: string;
  clear_route_pin?: boolean;
  delivery_mode?: JobRow['delivery_mode'];
  delivery_target?: DeliveryTarget;
}

export interface JobsServiceOptions {
  store: JobStore;
  scheduler: Scheduler;
  clock: JobClock;
  /** Configured provider names (route pins are validated against them). */
  providers(): string[];
  /** Loaded skill names (a skill_name outside them is unknown; runs inside a skill are not built yet). */
  skills?(): string[];
}

function fail(code: string, message: string, hint: string, data?: Record<string, unknown>): FermixError {
  return new FermixError({ code, message, hint, ...(data ? { data } : {}) });
}

export function createJobsService(options: JobsServiceOptions) {
  const { store, scheduler, clock } = options;

  function mustGet(jobId: string): JobRow {
    const job = store.get(jobId);
    if (!job) throw jobNotFound(jobId);
    return job;
  }

  function checkRoute(provider: string | undefined, model: string | undefined): void {
    if ((provider === undefined) !== (model === undefined)) {
      throw fail('invalid_route_pin', 'provider and model must be set together.', 'Give both provider and model, or neither (the default route).');
    }
    if (provider !== undefined && !options.providers().includes(provider)) {
      const known = options.providers();
      throw fail('invalid_route_pin', `No provider named ${provider} is configured.`, known.length ? `Use one of: ${known.join(', ')}.` : 'Add a provider in Settings → Models first.', { provider });
    }
    // A run cannot yet be routed to another provider than the primary's chain (the agent service has no
    // per-turn route): refusing is honest, storing a pin that does nothing would not be.
    if (provider !== undefined) {
      throw fail('invalid_route_pin', 'This build cannot pin a job to a provider yet; runs use the primary provider and its fallbacks.', 'Leave provider and model out (Settings → Models picks the primary).', { provider, model: model ?? null });
    }
  }

  function checkSkill(name: string | undefined): void {
    if (name === undefined) return;
    if (!(options.skills?.() ?? []).includes(name)) {
      throw fail('unknown_skill', `No loaded skill is named ${name}.`, 'Leave skill_name out, or load the skill first (skill_list shows the loaded ones).', { skill_name: name });
    }
    // Runs do not yet execute inside a skill: refusing is honest, a stored binding that did nothing would not be.
    throw fail('unknown_skill', `A job cannot run inside the skill ${name} in this build yet.`, "Leave skill_name out and put what the skill should do into the job's task.", { skill_name: name });
  }

  function checkDelivery(mode: JobRow['delivery_mode'] | undefined, target: DeliveryTarget | undefined): void {
    // The desktop has no channel platforms yet: results go to the Jobs inbox in the chat (origin).
    if (mode === 'channel' || target !== undefined) {
      throw fail('invalid_delivery', 'This Fermix has no channel platform to deliver to.', 'Use delivery_mode "origin" (the Jobs conversation in the chat), "local" (a notification) or "none".', { delivery_mode: mode ?? null });
    }
  }

  return {
    create(input: CreateJobInput, caller: JobCaller): JobRow {
      if (caller.trust !== 'operator' && caller.trust !== 'guest') {
        throw fail('no_source_trust', 'This context has no trust to stamp on a job.', 'Create the job from the desktop chat or `fermix ask`, where the request has a trust level.');
      }
      for (const field of ['name', 'schedule', 'task'] as const) {
        if (typeof input[field] !== 'string' || input[field].trim() === '') throw fail('missing_parameters', `schedule_job needs \`${field}\`.`, 'Give name, schedule and task (tool_describe schedule_job shows every field).', { field });
      }
      const timezone = checkTimezone(input.timezone);
      const schedule = parseSchedule(input.schedule, timezone);
      const now = clock.now();
      let expiresAt: number | null = null;
      if (input.expires_at !== undefined) {
        const parsed = parseSchedule(input.expires_at, timezone);
        if (parsed.kind !== 'once' || parsed.at <= now) {
          throw fail('invalid_expiry', `expires_at ${JSON.stringify(input.expires_at)} is not a future ISO 8601 time with an offset.`, 'Give e.g. "2027-01-31T00:00:00+00:00", or leave expires_at out.');
        }
        expiresAt = parsed.at;
      }
      checkDelivery(input.delivery_mode, input.delivery_target);
      if (input.allowed_tools !== undefined) {
        const visible = new Set(caller.visibleTools);
        const unknown = input.allowed_tools.filter((name) => !visible.has(name));
        if (unknown.length > 0) throw fail('unknown_tools', `allowed_tools names tools this caller cannot use: ${unknown.join(', ')}.`, 'Name only tools you can call now (tool_search finds them), or leave allowed_tools out.', { unknown });
      }
      checkSkill(input.skill_name);
      checkRoute(input.provider, input.model);
      const job = store.insert({
        id: store.freeId(input.name),
        name: input.name.trim(),
        description: input.description ?? null,
        schedule: input.schedule.trim(),
        timezone,
        task: input.task,
        trust: caller.trust,
        role: { name: caller.role.name, tools: [...caller.role.tools] },
        allowed_tools: input.allowed_tools ? [...new Set(input.allowed_tools)] : null,
        skill_name: input.skill_name ?? null,
        provider: input.provider ?? null,
        model: input.model ?? null,
        timeout_seconds: input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
        inactivity_timeout_seconds: input.inactivity_timeout_seconds ?? null,
        delivery_mode: input.delivery_mode ?? 'origin',
        delivery_target: null,
        origin_conversation_id: caller.conversationId ?? null,
        expires_at: expiresAt,
        next_run_at: firstRunAt(schedule, now),
      });
      scheduler.wake();
      return job;
    },
    update(input: UpdateJobInput): JobRow {
      const job = mustGet(input.job_id);
      const { job_id: _id, clear_route_pin: clear, ...fields } = input;
      if (Object.values(fields).every((value) => value === undefined) && clear === undefined) {
        throw fail('empty_update', 'update_job was given nothing to change.', 'Pass at least one of task, schedule, description, skill_name, provider + model, clear_route_pin, delivery_mode.');
      }
      if (clear && (input.provider !== undefined || input.model !== undefined)) {
        throw fail('invalid_route_pin', 'clear_route_pin cannot be combined with provider or model.', 'Either clear the pin, or set provider and model together.');
      }
      if (input.provider !== undefined || input.model !== undefined) checkRoute(input.provider, input.model);
      checkSkill(input.skill_name);
      if (input.delivery_mode !== undefined || input.delivery_target !== undefined) checkDelivery(input.delivery_mode, input.delivery_target);
      let next: number | null | undefined;
      let state: JobRow['state'] | undefined;
      if (input.schedule !== undefined) {
        const schedule = parseSchedule(input.schedule, job.timezone);
        next = firstRunAt(schedule, clock.now());
        // A job disabled for a schedule that no longer parsed comes back with a good one.
        if (job.state === 'disabled' || job.state === 'done') state = 'scheduled';
      }
      const updated = store.update(job.id, {
        task: input.task, schedule: input.schedule?.trim(), description: input.description, skill_name: input.skill_name,
        provider: clear ? null : input.provider, model: clear ? null : input.model, delivery_mode: input.delivery_mode,
        next_run_at: next, state, last_error: state ? null : undefined,
      });
      scheduler.wake();
      return updated;
    },
    get: mustGet,
    list(state?: string): JobRow[] {
      return store.list(state);
    },
    runs(jobId: string, filter: { status?: RunStatus; limit?: number } = {}): RunRow[] {
      mustGet(jobId);
      return store.runs(jobId, { status: filter.status, limit: Math.min(Math.max(filter.limit ?? RUNS_DEFAULT_LIMIT, 1), RUNS_MAX_LIMIT) });
    },
    run(runId: string): RunRow {
      const run = store.getRun(runId);
      if (!run) throw fail('not_found', `No run has the id ${runId}.`, 'Find run ids with `fermix jobs runs JOB_ID` (or list_job_runs).', { run_id: runId });
      return run;
    },
    pause(jobId: string): JobRow {
      const job = mustGet(jobId);
      if (job.state === 'expired' || job.state === 'done' || job.state === 'paused') return job;
      const paused = store.update(jobId, { state: 'paused' });
      scheduler.wake();
      return paused;
    },
    resume(jobId: string): JobRow {
      const job = mustGet(jobId);
      const now = clock.now();
      const schedule = parseSchedule(job.schedule, job.timezone);
      const pastOneOff = schedule.kind === 'once' && (job.state === 'done' || (job.last_run_at !== null && schedule.at <= now));
      if (job.state === 'expired' || pastOneOff || (job.expires_at !== null && job.expires_at <= now)) {
        throw fail('expired', `Job ${jobId} is past its expiry, or is a one-off whose time has passed.`, 'Schedule a new job instead (schedule_job, or ask in the chat).', { job_id: jobId });
      }
      if (job.state !== 'paused') return job;
      // Slots missed while paused are not run in a burst: the next one after now.
      const due = job.next_run_at;
      const next = isRecurring(schedule) && due !== null && due < now ? nextRunAfter(schedule, due, now) : due;
      const resumed = store.update(jobId, { state: 'scheduled', next_run_at: next });
      scheduler.wake();
      return resumed;
    },
    remove(jobId: string): { removed: boolean; job_id: string } {
      const job = mustGet(jobId);
      if (job.state === 'running') throw fail('job_running', `Job ${jobId} has a run in progress.`, `Wait for it to finish (\`fermix jobs runs ${jobId}\`), or pause it now and remove it afterwards.`, { job_id: jobId });
      const removed = store.remove(jobId);
      scheduler.wake();
      return { removed, job_id: jobId };
    },
    runNow(jobId: string): { job: JobRow; run: RunRow; done: Promise<void> } {
      return scheduler.runNow(jobId);
    },
  };
}

export type JobsService = ReturnType<typeof createJobsService>;

/** The public face of a job (tools, API, CLI): times as ISO strings. */
export function jobView(job: JobRow) {
  const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());
  return {
    id: job.id, name: job.name, description: job.description, schedule: job.schedule, timezone: job.timezone, task: job.task, state: job.state,
    trust: job.trust, role: job.role.name, allowed_tools: job.allowed_tools, skill_name: job.skill_name, provider: job.provider, model: job.model,
    timeout_seconds: job.timeout_seconds, inactivity_timeout_seconds: job.inactivity_timeout_seconds, delivery_mode: job.delivery_mode,
    expires_at: iso(job.expires_at), next_run_at: iso(job.next_run_at), last_run_at: iso(job.last_run_at), last_error: job.last_error,
    created_at: job.created_at, updated_at: job.updated_at,
  };
}

export function runView(run: RunRow) {
  return {
    id: run.id, job_id: run.job_id, trigger: run.trigger, status: run.status,
    scheduled_for: run.scheduled_for === null ? null : new Date(run.scheduled_for).toISOString(),
    queued_at: run.queued_at, started_at: run.started_at, finished_at: run.finished_at, prompt: run.prompt,
    conversation_id: run.conversation_id, turn_id: run.turn_id, response: run.response, silent: run.silent, tool_failures: run.tool_failures,
    usage: { input_tokens: run.input_tokens, output_tokens: run.output_tokens }, cost_usd: run.cost_usd,
    error: run.error_code ? { code: run.error_code, message: run.error_message ?? '', hint: run.error_hint ?? '' } : null,
  };
}
