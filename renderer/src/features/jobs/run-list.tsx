import type { Job, JobRun } from './store.js';

function outcome(run: JobRun): string {
  if (run.status === 'queued' || run.status === 'running') return 'Running…';
  if (run.error) return `${run.error.message}${run.error.hint ? ` ${run.error.hint}` : ''}`;
  if (run.silent) return 'Nothing to report ([SILENT]): nothing was delivered.';
  return run.response?.trim() || '(no answer)';
}

/** The open job's runs, newest first, each with its output, tool failures, tokens and cost. */
export function RunList({ job, runs }: { job: Job; runs: JobRun[] }) {
  return (
    <section className="run-list" aria-label={`Runs of ${job.name}`}>
      <h2>Runs of {job.name}</h2>
      <p className="muted small job-task">{job.task}</p>
      {runs.length === 0 ? (
        <p className="empty">It has not run yet.</p>
      ) : (
        <ol className="runs">
          {runs.map((run) => (
            <li key={run.id} className="run" data-status={run.status}>
              <div className="run-meta small">
                <span className={`run-status status-${run.status}`}>{run.status}</span>
                <span>{run.trigger === 'manual' ? 'Run now' : 'Scheduled'}</span>
                <time dateTime={run.queued_at}>{new Date(run.queued_at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time>
                {/* Only what is known: a local model's $0.0000 and a run that used no tokens said nothing useful. */}
                {run.usage.input_tokens + run.usage.output_tokens > 0 && <span className="muted">{(run.usage.input_tokens + run.usage.output_tokens).toLocaleString()} tokens{run.cost_usd ? ` · $${run.cost_usd.toFixed(4)}` : ''}</span>}
                {run.tool_failures > 0 && <span className="run-failures">{run.tool_failures} tool failure{run.tool_failures === 1 ? '' : 's'}</span>}
              </div>
              <p className="run-output">{outcome(run)}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
