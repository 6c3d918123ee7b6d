import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { ErrorNotice } from '../../app/error-notice.js';
import { useApiClient } from '../../app/model-context.js';
import { JobCard } from './job-card.js';
import { RunList } from './run-list.js';
import { createJobsStore } from './store.js';
import './jobs.css';

/** Scheduled jobs (created in the chat with schedule_job): each job, its runs with their output, and its controls. */
export function JobsScreen() {
  const client = useApiClient();
  const [store] = useState(() => createJobsStore(client));
  const jobs = useStore(store, (state) => state.jobs);
  const selectedId = useStore(store, (state) => state.selectedId);
  const runs = useStore(store, (state) => state.runs);
  const loading = useStore(store, (state) => state.loading);
  const busy = useStore(store, (state) => state.busy);
  const error = useStore(store, (state) => state.error);
  const { load, select, act, follow } = store.getState();

  useEffect(() => {
    void load();
    return follow();
  }, [load, follow]);

  const selected = jobs.find((job) => job.id === selectedId) ?? null;
  return (
    <section className="screen jobs-screen" aria-labelledby="jobs-title">
      <div className="jobs-header">
        <h1 id="jobs-title">Jobs</h1>
        <button type="button" onClick={() => void load()} disabled={loading}>{loading ? 'Loading…' : 'Refresh'}</button>
      </div>
      <p className="muted">
        Work the agent does on a schedule. Ask for one in the chat — “every weekday at 8, summarise my unread mail” — and its results arrive in the Jobs conversation.
      </p>
      {error && <ErrorNotice error={error} onDismiss={() => store.setState({ error: null })} />}
      {jobs.length === 0 ? (
        !loading && <p className="empty">No scheduled jobs yet.</p>
      ) : (
        <div className="jobs-layout">
          <ul className="job-list" aria-label="Scheduled jobs">
            {jobs.map((job) => (
              <JobCard key={job.id} job={job} selected={job.id === selectedId} busy={busy === job.id} onSelect={() => void select(job.id)} onAction={(action) => void act(action, job.id)} />
            ))}
          </ul>
          {selected && <RunList job={selected} runs={runs} />}
        </div>
      )}
    </section>
  );
}
