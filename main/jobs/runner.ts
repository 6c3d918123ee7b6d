/**
 * One job run = one agent turn with origin `job`, kind `job` (iteration cap 100), not interactive (an
 * `ask` decision is a denial: nobody can answer a card), under the trust and role stamped on the job and
 * narrowed to its allowed_tools. Each run gets a fresh conversation — no chat history (reference §2.8) —
 * hidden from the sidebar (its outcome stays on the run row; the transcript is kept for the delete grace
 * period, 24 h). A run past its timeout is stopped and recorded `timeout`.
 */
import type { JobClock } from './clock.js';
import type { JobRow, RunRow } from './job-store.js';
import { isSilent } from './delivery.js';
import type { RunOutcome } from './scheduler.js';

export interface JobTurnSummary {
  status: string;
  text: string;
  stop_reason: string | null;
  error: { code: string; message: string; hint: string } | null;
  usage: { input_tokens: number; output_tokens: number };
  cost_usd: number | null;
}

/** What the runner needs of the agent service (agent-service.ts satisfies it). */
export interface JobAgent {
  send(input: {
    message: string;
    title: string;
    trust: 'operator' | 'guest';
    origin: 'job';
    interactive: false;
    kind: 'job';
    role: { name: string; tools: string[] };
    allowed_tools?: string[];
  }): { conversation_id: string; turn_id: string; done: Promise<JobTurnSummary> };
  stop(conversationId: string): number;
  turnsOf(conversationId: string, limit: number): { tool_calls: { status: string }[] }[];
}

export interface RunnerOptions {
  agent: JobAgent;
  clock: JobClock;
  startRun(runId: string, links: { conversation_id: string; turn_id: string }): void;
  /** Hides the run's conversation from the sidebar once it is over. */
  hideConversation?(conversationId: string): void;
  /** Calls `seen` on every event of the run's conversation (progress, for inactivity_timeout_seconds). */
  watch?(conversationId: string, seen: () => void): () => void;
}

export function jobPrompt(job: Pick<JobRow, 'id' | 'name' | 'task' | 'timezone'>, at: number): string {
  const date = new Date(at);
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: job.timezone, dateStyle: 'full', timeStyle: 'short' }).format(date);
  return [
    `You are running the scheduled job "${job.name}" (${job.id}) unattended: nobody can answer questions or approve actions during this run.`,
    'Do the task with the tools you have, then answer with the result for the owner. If there is nothing worth reporting, answer exactly [SILENT].',
    '',
    `Date: ${date.toISOString()} (${local}, ${job.timezone})`,
    '',
    'Task:',
    job.task,
  ].join('\n');
}

/**
 * Reference §2.8: transient failures retry the whole loop with bounded backoff, but only before any tool
 * has run (a tool may have had effects). The provider errors that can pass on their own.
 */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set(['provider_unreachable', 'provider_unavailable', 'provider_timeout', 'provider_rate_limited', 'provider_stream_cut']);
export const RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000];

export function createJobRunner(options: RunnerOptions) {
  const wait = (ms: number) => new Promise<void>((resolve) => options.clock.setTimer(resolve, ms));
  return async function execute(job: JobRow, run: RunRow): Promise<RunOutcome> {
    const used = { input_tokens: 0, output_tokens: 0, cost_usd: null as number | null };
    for (let attempt = 0; ; attempt += 1) {
      const { outcome, toolsRan } = await once(job, run);
      used.input_tokens += outcome.input_tokens;
      used.output_tokens += outcome.output_tokens;
      if (outcome.cost_usd !== null) used.cost_usd = (used.cost_usd ?? 0) + outcome.cost_usd;
      const retry = outcome.status === 'error' && !toolsRan && TRANSIENT_CODES.has(outcome.error_code ?? '') && attempt < RETRY_DELAYS_MS.length;
      if (!retry) return { ...outcome, ...used };
      await wait(RETRY_DELAYS_MS[attempt]);
    }
  };

  async function once(job: JobRow, run: RunRow): Promise<{ outcome: RunOutcome; toolsRan: boolean }> {
    const sent = options.agent.send({
      message: run.prompt,
      title: `Job · ${job.name}`,
      trust: job.trust,
      origin: 'job',
      interactive: false,
      kind: 'job',
      role: { name: job.role.name, tools: [...job.role.tools] },
      ...(job.allowed_tools ? { allowed_tools: job.allowed_tools } : {}),
    });
    options.startRun(run.id, { conversation_id: sent.conversation_id, turn_id: sent.turn_id });
    // Hidden from the start: the window reloads its list on any event of an unknown stream, and a run's
    // transcript is not a conversation the person had (the outcome is on the run row and in the Jobs inbox).
    options.hideConversation?.(sent.conversation_id);
    let timedOut = null as 'timeout' | 'inactivity_timeout' | null;
    const cancel = options.clock.setTimer(() => {
      timedOut = 'timeout';
      options.agent.stop(sent.conversation_id);
    }, job.timeout_seconds * 1000);
    // Unarmed by default (reference §2.8); armed, any event of the run (a delta, a tool call) is progress.
    let cancelIdle = () => {};
    let unwatch = () => {};
    const idleSeconds = job.inactivity_timeout_seconds;
    if (idleSeconds !== null && options.watch) {
      const arm = () => {
        cancelIdle();
        cancelIdle = options.clock.setTimer(() => {
          timedOut ??= 'inactivity_timeout';
          options.agent.stop(sent.conversation_id);
        }, idleSeconds * 1000);
      };
      arm();
      unwatch = options.watch(sent.conversation_id, arm);
    }
    let summary: JobTurnSummary;
    try {
      summary = await sent.done;
    } finally {
      cancel();
      unwatch();
      cancelIdle();
    }
    const calls = options.agent.turnsOf(sent.conversation_id, 1).flatMap((turn) => turn.tool_calls);
    const counts = { tool_failures: calls.filter((call) => call.status === 'error').length, input_tokens: summary.usage.input_tokens, output_tokens: summary.usage.output_tokens, cost_usd: summary.cost_usd };
    const toolsRan = calls.length > 0;
    const result = (outcome: RunOutcome) => ({ outcome, toolsRan });
    // `ok` only means the loop finished (reference §2.8): tool failures are counted beside it.
    if (summary.status === 'completed' || summary.status === 'partial') {
      return result({ status: 'ok', response: summary.text, silent: isSilent(summary.text), ...counts, error_code: null, error_message: null, error_hint: null });
    }
    if (timedOut === 'inactivity_timeout') {
      return result({ status: 'error', response: summary.text || null, silent: false, ...counts, error_code: 'inactivity_timeout', error_message: `The run made no progress for ${idleSeconds} s and was stopped.`, error_hint: `Raise or clear inactivity_timeout_seconds for ${job.id}, or check the provider with \`fermix doctor\`.` });
    }
    if (timedOut) {
      return result({ status: 'error', response: summary.text || null, silent: false, ...counts, error_code: 'timeout', error_message: `The run was stopped after its timeout of ${job.timeout_seconds} s.`, error_hint: `Raise timeout_seconds with update_job, or narrow the task of ${job.id}.` });
    }
    const error = summary.error ?? { code: summary.stop_reason ?? summary.status, message: `The run ended ${summary.status}.`, hint: 'See `fermix logs -n 50`.' };
    return result({ status: 'error', response: summary.text || null, silent: false, ...counts, error_code: error.code, error_message: error.message, error_hint: error.hint });
  }
}
