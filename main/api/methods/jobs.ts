import { z } from 'zod';
import { defineMethod } from '../define.js';

/** A job as the window and `fermix jobs` see it (main/jobs/service.ts jobView). */
export const jobSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  schedule: z.string(),
  timezone: z.string(),
  task: z.string(),
  state: z.enum(['scheduled', 'running', 'paused', 'disabled', 'expired', 'done']),
  trust: z.enum(['operator', 'guest']),
  role: z.string(),
  allowed_tools: z.array(z.string()).nullable(),
  skill_name: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  timeout_seconds: z.number().int(),
  inactivity_timeout_seconds: z.number().int().nullable(),
  delivery_mode: z.enum(['none', 'origin', 'channel', 'local']),
  expires_at: z.string().nullable(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const jobRunSchema = z.object({
  id: z.string(),
  job_id: z.string(),
  trigger: z.enum(['schedule', 'manual']),
  status: z.enum(['queued', 'running', 'ok', 'error']),
  scheduled_for: z.string().nullable(),
  queued_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  prompt: z.string(),
  conversation_id: z.string().nullable(),
  turn_id: z.string().nullable(),
  response: z.string().nullable(),
  silent: z.boolean(),
  tool_failures: z.number().int(),
  usage: z.object({ input_tokens: z.number().int(), output_tokens: z.number().int() }),
  cost_usd: z.number().nullable(),
  error: z.object({ code: z.string(), message: z.string(), hint: z.string() }).nullable(),
});

const jobIdInput = z.object({ job_id: z.string().min(1) }).strict();
const jobOutput = z.object({ job: jobSchema });

export const jobMethods = {
  'jobs.list': defineMethod({
    description: 'Every scheduled job (optionally only one state), oldest first.',
    input: z.object({ state: z.string().optional() }).strict().default({}),
    output: z.object({ jobs: z.array(jobSchema) }),
  }),
  'jobs.runs': defineMethod({
    description: "A job's runs, newest first: status, trigger, output, tool failures, tokens and cost (limit 20, max 100).",
    input: z.object({ job_id: z.string().min(1), status: z.enum(['queued', 'running', 'ok', 'error']).optional(), limit: z.number().int().min(1).max(100).default(20) }).strict(),
    output: z.object({ runs: z.array(jobRunSchema) }),
  }),
  'jobs.run': defineMethod({
    description: 'One run in full (its prompt snapshot and final response).',
    input: z.object({ run_id: z.string().min(1) }).strict(),
    output: z.object({ run: jobRunSchema }),
  }),
  'jobs.run_now': defineMethod({
    description: 'Start an out-of-schedule run now (trigger manual); refuses paused, disabled, expired and running jobs.',
    input: jobIdInput,
    output: z.object({ job: jobSchema, run: jobRunSchema }),
  }),
  'jobs.pause': defineMethod({ description: 'Pause a job: the scheduler skips it until it is resumed.', input: jobIdInput, output: jobOutput }),
  'jobs.resume': defineMethod({ description: 'Resume a paused job (expired jobs and past one-offs are refused).', input: jobIdInput, output: jobOutput }),
  'jobs.remove': defineMethod({
    description: 'Delete a job and its runs; refused while a run is in progress.',
    input: jobIdInput,
    output: z.object({ removed: z.boolean(), job_id: z.string() }),
  }),
};
