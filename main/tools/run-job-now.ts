import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { jobId } from './job-fields.js';
import { jobsOf, jsonResult } from './job-port.js';
import { jobView, runView } from '../jobs/service.js';

export const runJobNowInput = lazySchema(() => z.object({ job_id: jobId('Id of the job to run now.') }));

export const runJobNow = defineBuiltin({
  name: 'run_job_now',
  description:
    'Trigger an immediate out-of-schedule run of a job, through the normal job runner. A recurring job keeps its schedule; a one-off is then done.',
  policy_class: 'read_write',
  category: 'scheduling',
  input: runJobNowInput,
  when_to_use: 'Test a job, or satisfy an on-demand request for what a job does.',
  examples: [{ args: { job_id: 'morning_digest' }, note: 'run a job once, now' }],
  failure_modes: [
    { tag: 'missing_job_id', description: 'job_id is absent or blank' },
    { tag: 'not_found', description: 'no job has that id' },
    { tag: 'not_runnable', description: 'the job is paused or disabled' },
    { tag: 'expired', description: 'the job is past its expiry' },
    { tag: 'already_running', description: 'the job already has a queued or running run' },
  ],
  scope_requirements: ['jobs:write', 'agent:delegate'],
  // The run is started, not awaited: it is a whole agent turn (up to its timeout); list_job_runs follows it.
  executor: async (args, context) => {
    const { job, run } = jobsOf(context).service.runNow(args.job_id as string);
    return jsonResult({ job: jobView(job), run: runView(run) });
  },
});
