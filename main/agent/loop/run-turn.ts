/**
 * The agent loop for one turn (seed 000 "How tools are presented to the model"): call the model,
 * dispatch its tool calls through the invoke boundary, append the results, and go on until the model
 * answers with text, the iteration cap (100) is reached, the loop detector ends it, or it is stopped.
 * Every step is persisted before the next one starts, which is what lets a parked turn resume after
 * a daemon restart: the runner picks up the unanswered calls of the turn's last assistant message.
 */
import type { ModelMessage, ToolSet } from 'ai';
import { FermixError, isFermixError, type WireError } from '../../core/errors.js';
import type { InvokeContext, Invoker, Role } from '../../core/capabilities/index.js';
import type { StoredMessage, TurnRow, TurnStatus, TurnStore } from '../../store/turns.js';
import { estimateCostUsd } from '../providers/pricing.js';
import { PROVIDER_SETUP_UI } from '../providers/provider-config.js';
import { checkHistory, toModelMessages } from './history.js';
import { createLoopDetector } from './loop-detector.js';
import { callModel, type ModelToolCall, type ProviderHandle, type RetryPolicy } from './model-call.js';
import { dispatchCall, skipCall, type DispatchContext } from './tool-dispatch.js';
import type { TurnEmitter } from './turn-events.js';
import { createStreamCheckpoint } from './stream-checkpoint.js';
import type { ReadAttachment } from './user-attachments.js';
import type { TurnContext } from '../compaction/turn-context.js';
import { isContextOverflow } from '../providers/provider-errors.js';

/** Reference §2.1: interactive, subagent and scheduled-job turns all get 100 iterations. */
export const ITERATION_CAPS = { interactive: 100, subagent: 100, job: 100 } as const;

export interface PreparedRequest {
  system: string;
  tools: ToolSet;
  /** Executor services for this iteration (the caller's filtered registry view, the deferred catalog). */
  services: Record<string, unknown>;
}

export interface RunTurnInput {
  turn: TurnRow;
  store: TurnStore;
  invoker: Invoker;
  emitter: TurnEmitter;
  signal: AbortSignal;
  /** True once the daemon is shutting down: a parked turn stays parked for the next start. */
  shuttingDown(): boolean;
  candidates: readonly ProviderHandle[];
  prepare(): PreparedRequest;
  retry: RetryPolicy;
  maxIterations: number;
  setCurrentCall(callId: string | null): number | void;
  onHistoryRepair(message: string): void;
  /** The run's role (Voss): it narrows what the invoke boundary allows, as it narrowed what was offered. */
  role?: Role | null;
  /** The pause hold point (turn-hold.ts): called before every model call and every tool call. */
  checkpoint?(): Promise<void>;
  /** Bytes of a user message's attachment (the attachments store); absent: files become notes. */
  readAttachment?: ReadAttachment;
  /** The live window of history and overflow recovery (compaction/); absent: the whole stored history. */
  context?: TurnContext;
}

export interface TurnOutcome {
  status: Exclude<TurnStatus, 'queued' | 'running' | 'parked'>;
  text: string;
  stop_reason: string | null;
  error: WireError | null;
  /** True when the daemon shut down with the turn parked: it is left for the next start. */
  leftParked?: boolean;
}

function toWire(error: unknown): WireError {
  if (isFermixError(error)) return error.toWire();
  return { code: 'internal_error', message: `The turn failed: ${(error as Error)?.message ?? String(error)}.`, hint: 'Run `fermix logs -n 50` for details and send the message again.' };
}

/** The unanswered calls of this turn's last assistant message (a resumed turn continues with them). */
function pendingCalls(history: readonly StoredMessage[]): ModelToolCall[] {
  let index = history.length - 1;
  const answered = new Set<string>();
  while (index >= 0 && history[index].role === 'tool') {
    answered.add((history[index] as Extract<StoredMessage, { role: 'tool' }>).callId);
    index -= 1;
  }
  const last = history[index];
  if (!last || last.role !== 'assistant') return [];
  return last.toolCalls.filter((call) => !answered.has(call.id));
}

export async function runTurn(input: RunTurnInput): Promise<TurnOutcome> {
  const { turn, store } = input;
  const conversationId = turn.conversation_id;
  const detector = createLoopDetector();
  let iterations = turn.iterations;
  let chosen: ProviderHandle | undefined = input.candidates.find((c) => c.provider.name === turn.provider);
  let firstCall = iterations === 0 || chosen === undefined;
  let lastText = '';
  let streamed = '';
  const checkpoint = input.checkpoint ?? (async () => {});
  // The answer as it streams, saved at least once a second: a kill -9 keeps what the person saw.
  const draft = createStreamCheckpoint(store, conversationId, turn.id);

  const persistPartial = () => {
    if (streamed) draft.finish({ role: 'assistant', text: streamed, toolCalls: [], partial: true });
    lastText = streamed || lastText;
  };
  const stopped = (): TurnOutcome => ({ status: 'stopped', text: lastText, stop_reason: 'stopped', error: null });

  /**
   * `textless`: the model's step carried no text. If then every call ends the turn (a delivered reaction,
   * Fermix: "a delivered reaction with no text ends the turn"), the turn completes without another model call.
   */
  const dispatchAll = async (calls: readonly ModelToolCall[], services: Record<string, unknown>, textless = false): Promise<TurnOutcome | null> => {
    let allEndTurn = calls.length > 0;
    const invokeContext: InvokeContext = {
      trust: turn.options.trust,
      origin: turn.options.origin,
      conversationId,
      turnId: turn.id,
      cwd: turn.options.cwd,
      interactive: turn.options.interactive,
      role: input.role ?? null,
      // A job's allowed_tools: the invoke boundary refuses what the list would not show.
      ...(turn.options.allowed_tools ? { filter: { allowed_tools: turn.options.allowed_tools } } : {}),
      signal: input.signal,
      services,
    };
    const ctx: DispatchContext = { turnId: turn.id, conversationId, store, invoker: input.invoker, invokeContext, detector, emitter: input.emitter, signal: input.signal, setCurrentCall: input.setCurrentCall };
    for (let index = 0; index < calls.length; index += 1) {
      await checkpoint();
      if (input.signal.aborted) {
        if (input.shuttingDown()) return { status: 'interrupted', text: lastText, stop_reason: 'daemon_shutdown', error: null };
        for (const rest of calls.slice(index)) skipCall(ctx, rest, 'cancelled', 'the turn was stopped before this call ran.');
        return stopped();
      }
      const outcome = await dispatchCall(ctx, calls[index]);
      if (outcome.kind !== 'done' || outcome.endsTurn !== true) allEndTurn = false;
      if (outcome.kind === 'loop') {
        for (const rest of calls.slice(index)) skipCall(ctx, rest, 'loop_detected', `not run: ${outcome.name} was called ${outcome.count} times with the same arguments.`);
        return {
          status: 'failed',
          text: lastText,
          stop_reason: 'loop_detected',
          error: {
            code: 'loop_detected',
            message: `The model called ${outcome.name} with the same arguments ${outcome.count} times, so the turn was ended.`,
            hint: 'Rephrase the request or give the missing detail, then send it again.',
          },
        };
      }
      if (outcome.kind === 'aborted') {
        if (input.shuttingDown()) {
          // Parked calls stay parked (their row and card are in the store) and resume at the next start.
          const parked = store.parked(turn.id) !== undefined;
          return { status: 'interrupted', text: lastText, stop_reason: 'daemon_shutdown', error: null, leftParked: parked };
        }
        for (const rest of calls.slice(index)) skipCall(ctx, rest, 'cancelled', 'the turn was stopped (/stop) before this call finished.');
        return stopped();
      }
    }
    if (textless && allEndTurn) return { status: 'completed', text: lastText, stop_reason: 'reaction', error: null };
    return null;
  };

  // A resumed (parked) turn first finishes the calls it was waiting on.
  // Only the live window (latest summary + what follows it) is read per model call, never the whole history.
  const liveHistory = (level = 0) => (input.context ? input.context.history(conversationId, level) : store.history(conversationId));
  const waiting = pendingCalls(liveHistory());
  if (waiting.length > 0 && iterations > 0) {
    const ended = await dispatchAll(waiting, input.prepare().services);
    if (ended) return ended;
  }
  store.setStatus(turn.id, 'running');

  for (;;) {
    await checkpoint();
    if (input.signal.aborted) return input.shuttingDown() ? { status: 'interrupted', text: lastText, stop_reason: 'daemon_shutdown', error: null } : stopped();
    if (iterations >= input.maxIterations) {
      return {
        status: 'failed',
        text: lastText,
        stop_reason: 'iteration_limit',
        error: { code: 'iteration_limit', message: `The turn reached its limit of ${input.maxIterations} model calls without a final answer.`, hint: 'Split the request into smaller steps and send them one by one.' },
      };
    }
    iterations += 1;
    store.setIterations(turn.id, iterations);
    const prepared = input.prepare();
    let checked = checkHistory(liveHistory());
    for (const repair of checked.repairs) input.onHistoryRepair(`${repair.kind} for call ${repair.call_id}`);
    const modelMessages = new Map<ProviderHandle, ModelMessage[]>();
    streamed = '';
    let result;
    let overflows = 0;
    try {
      // A context overflow is answered before any text streams: re-compress and re-issue, at most 3 times.
      for (;;) {
        try {
          result = await callModel({
            candidates: chosen && !firstCall ? [chosen] : input.candidates,
            firstCall,
            system: prepared.system,
            messagesFor: (handle) => {
              let messages = modelMessages.get(handle);
              if (!messages) {
                messages = toModelMessages(checked.messages, { imagesInToolResults: handle.provider.type === 'anthropic', acceptsImages: handle.acceptsImages, providerType: handle.provider.type, readAttachment: input.readAttachment });
                modelMessages.set(handle, messages);
              }
              return messages;
            },
            tools: prepared.tools,
            signal: input.signal,
            retry: input.retry,
            onDelta: (text) => {
              streamed += text;
              input.emitter.delta(text);
              draft.update(streamed);
            },
            onAttempt: (attempt) => store.recordModelCall(turn.id, {
              iteration: iterations,
              provider: attempt.provider.name,
              model: attempt.provider.model,
              attempt: attempt.attempt,
              outcome: attempt.outcome,
              finish_reason: attempt.finishReason,
              input_tokens: attempt.inputTokens,
              output_tokens: attempt.outputTokens,
              cost_usd: estimateCostUsd(attempt.provider, attempt.inputTokens, attempt.outputTokens),
              duration_ms: attempt.durationMs,
              error_code: attempt.errorCode,
            }),
            onFallback: (from, to, error) => input.emitter.emit('chat.warning', {
              turn_id: turn.id,
              code: 'provider_fallback',
              message: `${from.name} failed (${error.code}: ${error.message}); falling back to ${to.name}.`,
            }),
          });
          break;
        } catch (error) {
          const context = input.context;
          const handle = input.candidates.find((each) => each.provider.name === (error as FermixError).data?.provider) ?? chosen ?? input.candidates[0];
          if (!context || input.signal.aborted || !isContextOverflow(error) || streamed !== '') throw error;
          if (overflows >= context.maxRecompressions) throw context.overflowError(handle, error);
          overflows += 1;
          input.emitter.emit('chat.warning', { turn_id: turn.id, code: 'context_overflow', message: `The request did not fit ${handle.provider.model}'s context window; compacting the conversation and trying again (${overflows} of ${context.maxRecompressions}).` });
          await context.recompress(conversationId, handle, overflows, input.signal, error);
          checked = checkHistory(liveHistory(overflows));
          modelMessages.clear();
        }
      }
    } catch (error) {
      input.emitter.flush();
      if (input.signal.aborted) {
        // Shutdown or /stop: the text streamed so far stays, as the partial answer of the step.
        persistPartial();
        if (input.shuttingDown()) return { status: 'interrupted', text: lastText, stop_reason: 'daemon_shutdown', error: null };
        return stopped();
      }
      draft.dispose();
      return { status: 'failed', text: lastText, stop_reason: 'provider_error', error: toWire(error) };
    }
    input.emitter.flush();
    firstCall = false;
    chosen = result.handle;

    if (result.text === '' && result.toolCalls.length === 0) {
      store.setProvider(turn.id, result.handle.provider.name, result.handle.provider.model);
      return {
        status: 'failed',
        text: lastText,
        stop_reason: `empty_completion (finish reason: ${result.finishReason})`,
        error: {
          code: 'empty_completion',
          message: `${result.handle.provider.name} (${result.handle.provider.model}) returned an empty answer.`,
          hint: `Nothing was lost: try again. If it keeps happening, choose another model in ${PROVIDER_SETUP_UI}.`,
        },
      };
    }
    const truncated = result.finishReason === 'length' || result.finishReason === 'content-filter';
    const partial = result.streamError !== undefined || (truncated && result.toolCalls.length === 0);
    // The answer and the provider that gave it are one step: one commit.
    store.step(() => {
      store.setProvider(turn.id, result.handle.provider.name, result.handle.provider.model);
      draft.finish({ role: 'assistant', text: result.text, toolCalls: result.toolCalls, ...(partial ? { partial: true } : {}) });
    });
    if (result.text) lastText = result.text;
    if (result.streamError) {
      return { status: 'partial', text: lastText, stop_reason: `stream_error: ${result.streamError.code}`, error: result.streamError.toWire() };
    }
    if (result.toolCalls.length === 0) {
      return truncated
        ? { status: 'partial', text: lastText, stop_reason: result.finishReason, error: null }
        : { status: 'completed', text: lastText, stop_reason: result.finishReason, error: null };
    }
    const ended = await dispatchAll(result.toolCalls, prepared.services, result.text.trim() === '');
    if (ended) return ended;
  }
}

export function outcomeError(error: unknown): TurnOutcome {
  const wire = error instanceof FermixError ? error.toWire() : toWire(error);
  return { status: 'failed', text: '', stop_reason: 'error', error: wire };
}
