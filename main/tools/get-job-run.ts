import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { jobsOf, jsonResult } from './job-port.js';
import { runView } from '../jobs/service.js';

export const getJobRunInput = lazySchema(() =>
  z.object({
    run_id: z.string().min(1).describe('Id of the run, from list_job_runs.'),
  }),
);

export const getJobRun = defineBuiltin({
  name: 'get_job_run',
  description: 'Fetch detail for one scheduled job run: status, trigger, timing, prompt snapshot, token usage, final response and error.',
  policy_class: 'read_only',
  category: 'scheduling',
  input: getJobRunInput,
  when_to_use: 'Inspect one run in full after finding it with list_job_runs.',
  examples: [{ args: { run_id: 'run_8c1d2e' }, note: "inspect one run's prompt and outcome" }],
  failure_modes: [
    { tag: 'missing_run_id', description: 'run_id is absent or blank' },
    { tag: 'not_found', description: 'no run has that id' },
  ],
  scope_requirements: ['jobs:read'],
  executor: async (args, context) => jsonResult({ run: runView(jobsOf(context).service.run(args.run_id as string)) }),
});
