import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { jobId } from './job-fields.js';
import { jobsOf, jsonResult } from './job-port.js';
import { jobView } from '../jobs/service.js';

export const pauseJobInput = lazySchema(() => z.object({ job_id: jobId('Id of the job to pause.') }));

export const pauseJob = defineBuiltin({
  name: 'pause_job',
  description: 'Pause a scheduled job so the scheduler skips it until it is resumed.',
  policy_class: 'read_write',
  category: 'scheduling',
  input: pauseJobInput,
  when_to_use: 'Stop a job from running for a while without deleting it.',
  examples: [{ args: { job_id: 'price_watch' }, note: 'pause one job' }],
  failure_modes: [
    { tag: 'missing_job_id', description: 'job_id is absent or blank' },
    { tag: 'not_found', description: 'no job has that id' },
  ],
  scope_requirements: ['jobs:write'],
  executor: async (args, context) => jsonResult({ job: jobView(jobsOf(context).service.pause(args.job_id as string)) }),
});
