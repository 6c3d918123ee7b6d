import type { Handlers } from '../api/dispatcher.js';
import { jobView, runView, type JobsService } from '../jobs/service.js';

/** jobs.* for the window and `fermix jobs` (the same service the nine scheduling tools call). */
export function createJobHandlers(service: JobsService): Pick<Handlers, 'jobs.list' | 'jobs.runs' | 'jobs.run' | 'jobs.run_now' | 'jobs.pause' | 'jobs.resume' | 'jobs.remove'> {
  return {
    'jobs.list': (input) => ({ jobs: service.list(input.state).map(jobView) }),
    'jobs.runs': (input) => ({ runs: service.runs(input.job_id, { status: input.status, limit: input.limit }).map(runView) }),
    'jobs.run': (input) => ({ run: runView(service.run(input.run_id)) }),
    'jobs.run_now': (input) => {
      const { job, run } = service.runNow(input.job_id);
      return { job: jobView(job), run: runView(run) };
    },
    'jobs.pause': (input) => ({ job: jobView(service.pause(input.job_id)) }),
    'jobs.resume': (input) => ({ job: jobView(service.resume(input.job_id)) }),
    'jobs.remove': (input) => service.remove(input.job_id),
  };
}
