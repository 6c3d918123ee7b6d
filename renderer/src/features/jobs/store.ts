import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OutputOf } from '../../../../main/api/contract.js';
import type { EventEnvelope } from '../../../../main/api/events.js';
import type { WireError } from '../../../../main/core/errors.js';
import type { ApiClient } from '../../api/client.js';
import { toWireError } from '../connection/store.js';

export type Job = OutputOf<'jobs.list'>['jobs'][number];
export type JobRun = OutputOf<'jobs.runs'>['runs'][number];
export type JobAction = 'run_now' | 'pause' | 'resume' | 'remove';

export interface JobsState {
  jobs: Job[];
  selectedId: string | null;
  runs: JobRun[];
  loading: boolean;
  /** The job an action is running on, so its buttons disable while it does. */
  busy: string | null;
  error: WireError | null;
  load(): Promise<void>;
  select(jobId: string | null): Promise<void>;
  act(action: JobAction, jobId: string): Promise<void>;
  /** Follows job.run_finished: the list and the open job's runs refresh. Returns the unsubscribe. */
  follow(): () => void;
}

const METHOD = { run_now: 'jobs.run_now', pause: 'jobs.pause', resume: 'jobs.resume', remove: 'jobs.remove' } as const;

/** The Jobs screen's store; created when the screen opens (it holds nothing the rest of the window needs). */
export function createJobsStore(client: ApiClient): StoreApi<JobsState> {
  return createStore<JobsState>()((set, get) => {
    const loadRuns = async (jobId: string) => {
      const { runs } = await client.call('jobs.runs', { job_id: jobId, limit: 20 });
      if (get().selectedId === jobId) set({ runs });
    };
    return {
      jobs: [],
      selectedId: null,
      runs: [],
      loading: false,
      busy: null,
      error: null,
      async load() {
        set({ loading: true });
        try {
          const { jobs } = await client.call('jobs.list', {});
          const selectedId = jobs.some((job) => job.id === get().selectedId) ? get().selectedId : (jobs[0]?.id ?? null);
          set({ jobs, selectedId, error: null, ...(selectedId === null ? { runs: [] } : {}) });
          if (selectedId) await loadRuns(selectedId);
        } catch (error) {
          set({ error: toWireError(error) });
        } finally {
          set({ loading: false });
        }
      },
      async select(jobId) {
        set({ selectedId: jobId, runs: [] });
        if (jobId) await loadRuns(jobId).catch((error: unknown) => set({ error: toWireError(error) }));
      },
      async act(action, jobId) {
        set({ busy: jobId, error: null });
        try {
          await client.call(METHOD[action], { job_id: jobId });
          await get().load();
        } catch (error) {
          set({ error: toWireError(error) });
        } finally {
          set({ busy: null });
        }
      },
      follow() {
        return client.subscribe((event: EventEnvelope) => {
          if (event.type === 'job.run_finished') void get().load();
        });
      },
    };
  });
}
