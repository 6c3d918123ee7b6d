import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { jobId } from './job-fields.js';
import { jobsOf, jsonResult } from './job-port.js';
import { runView } from '../jobs/service.js';
import type { RunStatus } from '../jobs/job-store.js';

export const listJobRunsInput = lazySchema(() =>
  z.object({
    job_id: jobId('Id of the job whose runs to list.'),
    status: z.enum(['queued', 'running', 'ok', 'error']).optional().describe('Only runs with this status (ok means the loop finished; check tool_failures).'),
    limit: z.number().int().min(1).max(100).default(20).describe('Maximum runs to return, newest first (default 20, max 100).'),
  }),
);

export const listJobRuns = defineBuiltin({
  name: 'list_job_runs',
  description: "List past runs for a scheduled job: status, trigger, timing, final response, tool failures and error.",
  policy_class: 'read_only',
  category: 'scheduling',
  input: listJobRunsInput,
  when_to_use: 'Check that a job is firing, or read what its past runs produced.',
  examples: [{ args: { job_id: 'morning_digest', status: 'error', limit: 5 }, note: 'see recent failed runs' }],
  failure_modes: [
    { tag: 'missing_job_id', description: 'job_id is absent or blank' },
    { tag: 'registry_failed', description: 'the run query failed' },
  ],
  scope_requirements: ['jobs:read'],
  executor: async (args, context) =>
    jsonResult({ runs: jobsOf(context).service.runs(args.job_id as string, { status: args.status as RunStatus | undefined, limit: args.limit as number | undefined }).map(runView) }),
});
