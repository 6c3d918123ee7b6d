import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { jobId } from './job-fields.js';
import { jobsOf, jsonResult } from './job-port.js';

export const removeJobInput = lazySchema(() => z.object({ job_id: jobId('Id of the job to delete.') }));

export const removeJobOutput = lazySchema(() => z.object({ removed: z.boolean(), job_id: z.string() }));

export const removeJob = defineBuiltin({
  name: 'remove_job',
  description: 'Delete a scheduled job and mark its memory source removed. A job with a run in progress is refused.',
  policy_class: 'read_write',
  category: 'scheduling',
  input: removeJobInput,
  output: removeJobOutput,
  when_to_use: 'The owner no longer wants a job at all; use pause_job to stop it only for a while.',
  examples: [{ args: { job_id: 'price_watch' }, note: 'delete a job' }],
  failure_modes: [
    { tag: 'missing_job_id', description: 'job_id is absent or blank' },
    { tag: 'not_found', description: 'no job has that id' },
    { tag: 'job_running', description: 'the job has a run in progress; wait for it to finish' },
  ],
  scope_requirements: ['jobs:write'],
  executor: async (args, context) => jsonResult(jobsOf(context).service.remove(args.job_id as string)),
});
