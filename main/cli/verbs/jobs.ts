/**
 * `fermix jobs list|runs|run-now|pause|resume|remove` — the scheduled jobs of the running daemon
 * (jobs are created in the chat, with schedule_job). Every subverb takes --json.
 */
import type { HomePaths } from '../../config/home.js';
import { callDaemon } from '../control-client.js';
import { EXIT, UsageError, type CliIo } from '../output.js';

export const JOBS_USAGE = `usage: fermix jobs list [--json]
       fermix jobs runs JOB_ID [--limit N] [--json]       newest first (default 20, max 100)
       fermix jobs run-now|pause|resume|remove JOB_ID [--json]
Jobs are created in the chat ("every weekday at 8, summarise …") with the schedule_job tool.`;

interface JobLine { id: string; name: string; state: string; schedule: string; timezone: string; next_run_at: string | null; last_error: string | null }
interface RunLine { id: string; trigger: string; status: string; queued_at: string; tool_failures: number; usage: { input_tokens: number; output_tokens: number }; cost_usd: number | null; response: string | null; silent: boolean; error: { code: string; message: string } | null }

const VERB_METHOD: Record<string, string> = { 'run-now': 'jobs.run_now', pause: 'jobs.pause', resume: 'jobs.resume', remove: 'jobs.remove' };

function oneLine(text: string | null, max = 80): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export async function jobsVerb(io: CliIo, paths: HomePaths, words: string[], options: { json: boolean; limit?: string }): Promise<number> {
  const [sub, jobId] = words;
  const print = (result: unknown, human: () => void) => {
    if (options.json) io.out(JSON.stringify({ schema_version: 1, ok: true, result }));
    else human();
    return EXIT.ok;
  };
  if (sub === undefined || sub === 'list') {
    const result = (await callDaemon(paths.socket, 'jobs.list', {})) as { jobs: JobLine[] };
    return print(result, () => {
      if (result.jobs.length === 0) io.out('No scheduled jobs. Ask for one in the chat, e.g. "every day at 8 summarise my inbox".');
      for (const job of result.jobs) {
        io.out(`${job.id.padEnd(24)} ${job.state.padEnd(10)} ${`${job.schedule}${job.timezone !== 'UTC' ? ` (${job.timezone})` : ''}`.padEnd(28)} next ${job.next_run_at ?? '—'}${job.last_error ? `  last error: ${oneLine(job.last_error, 60)}` : ''}`);
      }
    });
  }
  if (jobId === undefined) throw new UsageError(`jobs ${sub} needs a JOB_ID (\`fermix jobs list\` shows them)`);
  if (sub === 'runs') {
    const limit = options.limit === undefined ? 20 : Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit takes 1..100');
    const result = (await callDaemon(paths.socket, 'jobs.runs', { job_id: jobId, limit })) as { runs: RunLine[] };
    return print(result, () => {
      if (result.runs.length === 0) io.out(`Job ${jobId} has not run yet.`);
      for (const run of result.runs) {
        const outcome = run.error ? `${run.error.code}: ${oneLine(run.error.message, 60)}` : run.silent ? '[SILENT]' : oneLine(run.response);
        io.out(`${run.queued_at}  ${run.status.padEnd(7)} ${run.trigger.padEnd(8)} ${run.id}  tools failed ${run.tool_failures}  tokens ${run.usage.input_tokens}/${run.usage.output_tokens}${run.cost_usd !== null ? `  $${run.cost_usd.toFixed(4)}` : ''}  ${outcome}`);
      }
    });
  }
  const method = VERB_METHOD[sub];
  if (!method) throw new UsageError(`unknown jobs subverb "${sub}"; use list, runs, run-now, pause, resume or remove`);
  const result = (await callDaemon(paths.socket, method, { job_id: jobId })) as { job?: JobLine; run?: RunLine; removed?: boolean };
  return print(result, () => {
    if (sub === 'remove') io.out(`Removed job ${jobId}.`);
    else if (sub === 'run-now') io.out(`Started run ${result.run?.id} of ${jobId}; follow it with \`fermix jobs runs ${jobId}\`.`);
    else io.out(`Job ${jobId} is ${result.job?.state}.`);
  });
}
