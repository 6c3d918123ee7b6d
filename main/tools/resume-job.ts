import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { jobId } from './job-fields.js';
import { jobsOf, jsonResult } from './job-port.js';
import { jobView } from '../jobs/service.js';

export const resumeJobInput = lazySchema(() => z.object({ job_id: jobId('Id of the paused job to resume.') }));

export const resumeJob = defineBuiltin({
  name: 'resume_job',
  description: 'Resume a paused scheduled job. Expired jobs and past one-offs are refused.',
  policy_class: 'read_write',
  category: 'scheduling',
  input: resumeJobInput,
  when_to_use: 'Start a paused job again.',
  examples: [{ args: { job_id: 'price_watch' }, note: 'resume a paused job' }],
  failure_modes: [
    { tag: 'missing_job_id', description: 'job_id is absent or blank' },
    { tag: 'not_found', description: 'no job has that id' },
    { tag: 'expired', description: 'the job is past its expiry, or is a one-off whose time has passed' },
  ],
  scope_requirements: ['jobs:write'],
  executor: async (args, context) => jsonResult({ job: jobView(jobsOf(context).service.resume(args.job_id as string)) }),
});
