import { scheduleInWords } from './schedule-words.js';
import type { Job, JobAction } from './store.js';

const STATE_LABEL: Record<Job['state'], string> = { scheduled: 'Scheduled', running: 'Running', paused: 'Paused', disabled: 'Disabled', expired: 'Expired', done: 'Done' };

function when(iso: string | null): string {
  return iso === null ? '—' : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** One job in the list: name, schedule, state, next run, and pause/resume, run now, remove. */
export function JobCard({ job, selected, busy, onSelect, onAction }: { job: Job; selected: boolean; busy: boolean; onSelect: () => void; onAction: (action: JobAction) => void }) {
  const finished = job.state === 'expired' || job.state === 'done';
  return (
    <li className="job-card" data-selected={selected || undefined} data-state={job.state}>
      <button type="button" className="job-select" aria-pressed={selected} aria-label={`Show runs of ${job.name}`} onClick={onSelect}>
        <span className="job-name">{job.name}</span>
        <span className={`job-state state-${job.state}`}>{STATE_LABEL[job.state]}</span>
        <span className="job-schedule" title={job.schedule}>{scheduleInWords(job.schedule)}{job.timezone !== 'UTC' && <span className="muted"> · {job.timezone}</span>}</span>
        <span className="job-next muted small">{finished ? `Last run ${when(job.last_run_at)}` : `Next run ${when(job.next_run_at)}`}</span>
        {job.last_error && <span className="job-error small">{job.last_error}</span>}
      </button>
      <div className="job-actions">
        <button type="button" disabled={busy || job.state !== 'scheduled'} onClick={() => onAction('run_now')} aria-label={`Run ${job.name} now`}>Run now</button>
        {job.state === 'paused' ? (
          <button type="button" disabled={busy} onClick={() => onAction('resume')} aria-label={`Resume ${job.name}`}>Resume</button>
        ) : (
          <button type="button" disabled={busy || finished} onClick={() => onAction('pause')} aria-label={`Pause ${job.name}`}>Pause</button>
        )}
        <button type="button" className="danger" disabled={busy || job.state === 'running'} onClick={() => onAction('remove')} aria-label={`Remove ${job.name}`}>Remove</button>
      </div>
    </li>
  );
}
