import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { jobsOf, jsonResult } from './job-port.js';
import { jobView } from '../jobs/service.js';

export const listJobsInput = lazySchema(() =>
  z.object({
    state: z.string().optional().describe('Only jobs in this state, e.g. scheduled, running, paused, disabled or expired.'),
  }),
);

export const listJobs = defineBuiltin({
  name: 'list_jobs',
  description: 'List existing scheduled jobs and their current state.',
  policy_class: 'read_only',
  category: 'scheduling',
  input: listJobsInput,
  when_to_use: 'Find a job id, or check which jobs exist and whether they are paused.',
  examples: [
    { args: {}, note: 'list every job' },
    { args: { state: 'paused' }, note: 'list paused jobs' },
  ],
  failure_modes: [{ tag: 'registry_failed', description: 'the job query failed' }],
  scope_requirements: ['jobs:read'],
  executor: async (args, context) => jsonResult({ jobs: jobsOf(context).service.list(args.state as string | undefined).map(jobView) }),
});
