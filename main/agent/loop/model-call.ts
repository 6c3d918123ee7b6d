/**
 * One model call of a turn, streamed, with the provider policy of reference §1.3 and §6:
 * - a bounded retry on the same provider for transient failures, but only while nothing has been
 *   streamed yet (a retry after text went out would say it twice);
 * - on the FIRST call of a turn only, the next configured provider takes over after that retry;
 * - a stream that breaks after some text keeps the text as a partial answer and records why;
 * - per-request timeout from `[providers.<name>] timeout_ms`.
 */
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { streamModelStep } from './model-stream.js';
import { FermixError } from '../../core/errors.js';
import type { ResolvedProvider } from '../providers/provider-config.js';
import { classifyProviderError, type ClassifiedError } from '../providers/provider-errors.js';

export interface ProviderHandle {
  provider: ResolvedProvider;
  /** Built lazily: resolving the key may fail (needs_secret), and that is this provider's failure. */
  model(): LanguageModel;
  acceptsImages: boolean;
}

export interface RetryPolicy {
  /** Attempts on one provider for the first call of a turn (1 retry) and for later calls (2 retries). */
  firstCallAttempts: number;
  continuationAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { firstCallAttempts: 2, continuationAttempts: 3, baseDelayMs: 500, maxDelayMs: 5_000 };

export interface AttemptRecord {
  provider: ResolvedProvider;
  attempt: number;
  outcome: 'ok' | 'error' | 'aborted';
  finishReason?: string;
  inputTokens?: number;
  outputTokens?: number;
  durationMs: number;
  errorCode?: string;
}

export interface ModelCallInput {
  candidates: readonly ProviderHandle[];
  firstCall: boolean;
  system: string;
  messagesFor(handle: ProviderHandle): ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  retry: RetryPolicy;
  onDelta(text: string): void;
  onAttempt(record: AttemptRecord): void;
  onFallback(from: ResolvedProvider, to: ResolvedProvider, error: FermixError): void;
}

export interface ModelToolCall {
  id: string;
  name: string;
  args: unknown;
}

export interface ModelCallResult {
  handle: ProviderHandle;
  text: string;
  toolCalls: ModelToolCall[];
  finishReason: string;
  inputTokens?: number;
  outputTokens?: number;
  /** Set when the stream broke after text arrived; the text is kept as a partial answer. */
  streamError?: FermixError;
}

type Once =
  | { kind: 'ok'; result: ModelCallResult }
  | { kind: 'partial'; result: ModelCallResult }
  | { kind: 'failed'; classified: ClassifiedError }
  | { kind: 'aborted' };

export function cancelledError(): FermixError {
  return new FermixError({ code: 'cancelled', message: 'The turn was stopped.', hint: 'Send a message to continue; the conversation and its earlier turns are kept.' });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

async function streamOnce(handle: ProviderHandle, input: ModelCallInput, attempt: number): Promise<Once> {
  const started = Date.now();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), handle.provider.timeoutMs);
  const signal = AbortSignal.any([input.signal, timeout.signal]);
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let finishReason = 'unknown';
  let inputTokens: number | undefined;
  let outputTokens: number | undefined;
  let failure: unknown;
  const record = (outcome: AttemptRecord['outcome'], errorCode?: string) =>
    input.onAttempt({ provider: handle.provider, attempt, outcome, finishReason, inputTokens, outputTokens, durationMs: Date.now() - started, errorCode });
  try {
    for await (const part of streamModelStep({ model: handle.model(), system: input.system, messages: input.messagesFor(handle), tools: input.tools, signal })) {
      if (part.type === 'text') {
        text += part.text;
        input.onDelta(part.text);
      } else if (part.type === 'tool-call') {
        toolCalls.push({ id: part.id, name: part.name, args: part.input });
      } else if (part.type === 'finish') {
        finishReason = part.finishReason;
        inputTokens = part.inputTokens ?? inputTokens;
        outputTokens = part.outputTokens ?? outputTokens;
      } else {
        failure ??= part.error;
      }
    }
  } catch (error) {
    failure ??= error;
  } finally {
    clearTimeout(timer);
  }
  if (input.signal.aborted) {
    record('aborted', 'cancelled');
    return { kind: 'aborted' };
  }
  if (timeout.signal.aborted && failure === undefined) failure = new Error('timeout');
  const result: ModelCallResult = { handle, text, toolCalls, finishReason, inputTokens, outputTokens };
  if (failure === undefined) {
    record('ok');
    return { kind: 'ok', result };
  }
  const classified = classifyProviderError(failure, handle.provider, timeout.signal.aborted);
  record('error', classified.error.code);
  if (text.length > 0) {
    // Tool calls from a broken step are dropped: their arguments may be cut.
    return { kind: 'partial', result: { ...result, toolCalls: [], finishReason: 'error', streamError: classified.error } };
  }
  return { kind: 'failed', classified };
}

export async function callModel(input: ModelCallInput): Promise<ModelCallResult> {
  const candidates = input.firstCall ? input.candidates : input.candidates.slice(0, 1);
  const attempts = input.firstCall ? input.retry.firstCallAttempts : input.retry.continuationAttempts;
  let last: ClassifiedError | undefined;
  for (let index = 0; index < candidates.length; index += 1) {
    const handle = candidates[index];
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const once = await streamOnce(handle, input, attempt);
      if (once.kind === 'aborted') throw cancelledError();
      if (once.kind !== 'failed') return once.result;
      last = once.classified;
      if (!last.retrySameProvider || attempt === attempts) break;
      const delay = Math.min(last.retryAfterMs ?? input.retry.baseDelayMs * 2 ** (attempt - 1), input.retry.maxDelayMs);
      await sleep(delay, input.signal);
      if (input.signal.aborted) throw cancelledError();
    }
    const next = candidates[index + 1];
    if (!last?.transient || next === undefined) break;
    input.onFallback(handle.provider, next.provider, last.error);
  }
  throw last?.error ?? new FermixError({ code: 'provider_error', message: 'No provider answered.', hint: 'Check [providers] in config.toml.' });
}
