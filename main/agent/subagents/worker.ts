/**
 * One subagent worker: a one-shot agent-loop run (runTurn) in its own conversation of the batch's
 * throwaway store. Bounded by the subagent iteration cap (100), its own timeout, the parent's signal
 * and the parent's pause hold. Its model calls are recorded twice: on its own turn (its per-worker
 * usage) and on the parent turn (so the parent's tokens and cost include the delegated work).
 */
import { randomUUID } from 'node:crypto';
import type { Invoker, PolicyClass, Role, Trust } from '../../core/capabilities/index.js';
import { FermixError } from '../../core/errors.js';
import type { TurnOptions, TurnStore } from '../../store/turns.js';
import type { ProviderHandle, RetryPolicy } from '../loop/model-call.js';
import { ITERATION_CAPS, runTurn, type PreparedRequest } from '../loop/run-turn.js';
import type { ChatEventPayload, ChatEventType, TurnEmitter } from '../loop/turn-events.js';
import { workerMessage, type ResultFormat } from './worker-prompt.js';

export interface WorkerOutcome {
  status: 'completed' | 'failed' | 'timed_out' | 'canceled';
  durationMs: number | null;
  iterations: number;
  text: string;
  error: string | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

export interface WorkerProgress {
  iterations: number;
  tool: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

export interface WorkerInput {
  store: TurnStore;
  parentStore: TurnStore;
  parentTurnId: string;
  invoker: Invoker;
  classes: readonly PolicyClass[];
  role: Role;
  trust: Trust;
  request: PreparedRequest;
  candidates: readonly ProviderHandle[];
  retry: RetryPolicy;
  timeoutMs: number;
  parentSignal: AbortSignal;
  checkpoint(signal: AbortSignal): Promise<void>;
  task: { id: string; task: string; context?: string; shared_context?: string; result_format: ResultFormat };
  onProgress(progress: WorkerProgress): void;
}

type StopCause = 'timeout' | 'parent';

/** What a worker's tools see as the abort reason; a timeout names the subagents parameter that gives it longer. */
export function workerStopError(why: StopCause, timeoutMs: number): FermixError {
  if (why === 'parent') return new FermixError({ code: 'cancelled', message: 'The parent turn was stopped.', hint: 'Send the request again to start the delegated work afresh.' });
  return new FermixError({
    code: 'timeout',
    message: `The subagent did not finish within ${timeoutMs / 1000} s.`,
    hint: `Call subagents again with a larger \`timeout_seconds\` (this run had ${timeoutMs / 1000}; at most 900), or split the task into smaller ones.`,
    data: { timeout_seconds: timeoutMs / 1000 },
  });
}

export async function runWorker(input: WorkerInput): Promise<WorkerOutcome> {
  const started = Date.now();
  const { store } = input;
  const conversationId = randomUUID();
  store.ensureConversation(conversationId, `subagent ${input.task.id}`);
  const message = workerMessage(input.task);
  const options: TurnOptions = { trust: input.trust === 'operator' ? 'operator' : 'guest', origin: 'subagent', interactive: false, kind: 'subagent', message };
  const turnId = randomUUID();
  store.createTurn(turnId, conversationId, options);
  store.appendMessage(conversationId, turnId, { role: 'user', text: message });
  store.setStatus(turnId, 'running');

  const controller = new AbortController();
  let cause: StopCause | null = null;
  const stop = (why: StopCause) => {
    if (cause !== null) return;
    cause = why;
    controller.abort(workerStopError(why, input.timeoutMs));
  };
  const timer = setTimeout(() => stop('timeout'), input.timeoutMs);
  const onParentAbort = () => stop('parent');
  if (input.parentSignal.aborted) onParentAbort();
  else input.parentSignal.addEventListener('abort', onParentAbort, { once: true });

  let tool: string | null = null;
  const progress = () => {
    const row = store.getTurn(turnId);
    input.onProgress({ iterations: row.iterations, tool, input_tokens: row.input_tokens, output_tokens: row.output_tokens, cost_usd: row.cost_usd });
  };
  // The parent's iteration at the time of the call: its model_calls rows say which step delegated.
  const parentIteration = input.parentStore.getTurn(input.parentTurnId).iterations;
  const workerStore: TurnStore = {
    ...store,
    recordModelCall(id, call) {
      store.recordModelCall(id, call);
      input.parentStore.recordModelCall(input.parentTurnId, { ...call, iteration: parentIteration });
      progress();
    },
  };
  // Worker deltas stay out of the parent's thread; its tool calls move its card.
  const emitter: TurnEmitter = {
    emit<T extends ChatEventType>(type: T, payload: ChatEventPayload<T>) {
      if (type === 'chat.tool_call') {
        tool = (payload as ChatEventPayload<'chat.tool_call'>).name;
        progress();
      }
    },
    delta() {},
    flush() {},
  };
  // Every call carries the narrowed classes, so the invoke boundary refuses exactly what was not offered.
  const invoker: Invoker = {
    execute: (name, args, context) => input.invoker.execute(name, args, { ...context, filter: { ...context.filter, policy_classes: input.classes } }),
  };

  try {
    progress();
    const outcome = await runTurn({
      turn: store.getTurn(turnId),
      store: workerStore,
      invoker,
      emitter,
      signal: controller.signal,
      shuttingDown: () => false,
      candidates: input.candidates,
      prepare: () => input.request,
      role: input.role,
      retry: input.retry,
      maxIterations: ITERATION_CAPS.subagent,
      checkpoint: () => input.checkpoint(controller.signal),
      setCurrentCall: () => undefined,
      onHistoryRepair: () => {},
    });
    const row = store.getTurn(turnId);
    const usage = { iterations: row.iterations, inputTokens: row.input_tokens, outputTokens: row.output_tokens, costUsd: row.cost_usd, durationMs: Date.now() - started };
    store.finishTurn(turnId, { status: outcome.status, stop_reason: outcome.stop_reason, error: outcome.error });
    const stoppedBy = cause as StopCause | null;
    if (outcome.status === 'stopped' || outcome.status === 'interrupted' || stoppedBy !== null) {
      const timedOut = stoppedBy === 'timeout';
      return { ...usage, status: timedOut ? 'timed_out' : 'canceled', text: outcome.text, error: timedOut ? `timed out after ${input.timeoutMs / 1000} s (raise timeout_seconds, at most 900, or split the task)` : 'the parent turn was stopped' };
    }
    if (outcome.status === 'failed') {
      const error = outcome.error ? `${outcome.error.code}: ${outcome.error.message}` : (outcome.stop_reason ?? 'failed');
      return { ...usage, status: 'failed', text: outcome.text, error };
    }
    // `partial` (a cut stream, a length stop) still delivers what the worker said.
    return { ...usage, status: 'completed', text: outcome.text, error: null };
  } catch (error) {
    const row = store.getTurn(turnId);
    const text = error instanceof FermixError ? `${error.code}: ${error.message}` : String((error as Error)?.message ?? error);
    return { status: 'failed', durationMs: Date.now() - started, iterations: row.iterations, text: '', error: `crashed: ${text}`, inputTokens: row.input_tokens, outputTokens: row.output_tokens, costUsd: row.cost_usd };
  } finally {
    clearTimeout(timer);
    input.parentSignal.removeEventListener('abort', onParentAbort);
  }
}
