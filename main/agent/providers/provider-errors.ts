/**
 * Provider failures → Fermix errors, plus the two facts the loop needs: may it retry on the same
 * provider, and may it fall back to the next one. Transient = rate limits, overload, 5xx, dropped
 * connections, timeouts. A timeout is not retried on the same provider (reference §6: "never retry a
 * timeout") but may fall back. Auth and request errors are permanent: retrying cannot fix them.
 */
import type { APICallError } from 'ai';
import { aiSdkIfLoaded } from '../ai-runtime.js';
import { FermixError, isFermixError } from '../../core/errors.js';
import { PROVIDER_SETUP_UI } from './provider-config.js';
import { classifyConnectionFailure } from './connection-errors.js';
import { cliCommand } from '../../cli/invocation.js';

export interface ClassifiedError {
  error: FermixError;
  transient: boolean;
  retrySameProvider: boolean;
  retryAfterMs?: number;
}

const NETWORK_CODES = /ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|UND_ERR|other side closed|terminated|socket hang up|fetch failed/i;

function chain(error: unknown): string {
  const parts: string[] = [];
  for (let e: any = error; e && parts.length < 6; e = e.cause) parts.push(`${e.code ?? ''} ${e.message ?? String(e)}`);
  return parts.join(' <- ');
}

/** The socket's own words ("other side closed"), not the SDK's wrapper that repeats them. */
function innermostMessage(error: unknown): string {
  let message = '';
  for (let e: any = error, depth = 0; e && depth < 8; e = e.cause, depth += 1) if (typeof e.message === 'string' && e.message) message = e.message;
  return firstLine(message);
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

/** The error body's own message when it has one (OpenAI/Anthropic both use {error:{message}}). */
function bodyMessage(error: APICallError): string {
  try {
    const body = JSON.parse(error.responseBody ?? '') as { error?: { message?: string } | string; message?: string };
    const inner = typeof body.error === 'string' ? body.error : body.error?.message ?? body.message;
    if (inner) return firstLine(inner);
  } catch {
    // not JSON
  }
  return firstLine(error.message);
}

/**
 * How each vendor says "the request does not fit the context window": OpenAI `context_length_exceeded`
 * ("maximum context length"), Anthropic "prompt is too long", vLLM/DeepSeek/Groq/Mistral ("maximum
 * context length", "reduce the length of the messages"), llama.cpp `exceed_context_size_error`,
 * Gemini "input token count … exceeds". Only read on 4xx answers: a 429 "tokens per minute" is a rate limit.
 */
const CONTEXT_OVERFLOW = /context_length_exceeded|maximum context length|prompt is too long|exceed_context_size_error|exceeds? (the )?(available |model'?s? )?context( size| window| length)?|context window (is )?exceeded|reduce the length of the messages|input token count.{0,40}exceeds|too many tokens in (the )?(prompt|request)/i;

/** The window the vendor names in its overflow message ("maximum context length is 8192", "> 200000 maximum"). */
const STATED_WINDOW = /maximum context length is (\d+)|> ?(\d+) maximum|context size \((\d+)\)|available context size \((\d+)/i;

export function statedContextWindow(text: string): number | undefined {
  const match = STATED_WINDOW.exec(text);
  const value = Number(match?.slice(1).find((group) => group !== undefined));
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** True for the error a context overflow was classified as (the loop re-compresses and retries). */
export function isContextOverflow(error: unknown): boolean {
  return isFermixError(error) && error.code === 'context_overflow';
}

/** Ollama and OpenAI say a missing model this way ("model \"x\" not found", `model_not_found`, "does not exist"). */
const MODEL_MISSING = /model_not_found|model[^.]{0,80}(not found|does not exist|not exist)|no such model|unknown model/i;

export function classifyProviderError(error: unknown, provider: { name: string; model: string; baseUrl?: string; timeoutMs?: number }, timedOut = false): ClassifiedError {
  const who = `${provider.name} (${provider.model})`;
  if (isFermixError(error)) return { error, transient: false, retrySameProvider: false };
  if (timedOut) {
    return {
      error: new FermixError({ code: 'provider_timeout', message: `${who} did not answer within its time limit${provider.timeoutMs ? ` (${provider.timeoutMs} ms)` : ''}.`, hint: `Raise timeout_ms in [providers.${provider.name}] for a slow model, or try again.`, data: { provider: provider.name } }),
      transient: true,
      retrySameProvider: false,
    };
  }
  if (aiSdkIfLoaded()?.APICallError.isInstance(error)) {
    const status = error.statusCode ?? 0;
    const retryAfter = Number(error.responseHeaders?.['retry-after']);
    const retryAfterMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined;
    const detail = bodyMessage(error);
    const data = { provider: provider.name, status };
    // No status: the request never got an answer (refused, DNS, TLS, closed) — not a dropped answer.
    if (error.statusCode === undefined) {
      const connection = classifyConnectionFailure(error, provider);
      if (connection) return connection;
    }
    if (status < 400) {
      // A 200 whose body broke off: the connection dropped mid-answer.
      return {
        error: new FermixError({ code: 'provider_stream_cut', message: `The connection to ${who} dropped in the middle of the answer (${innermostMessage(error)}).`, hint: 'Send the message again; if it keeps happening, check the network or the server at base_url.', data }),
        transient: true,
        retrySameProvider: true,
      };
    }
    if (status === 401 || status === 403) {
      return {
        error: new FermixError({ code: 'provider_auth', message: `${who} refused the API key (HTTP ${status}): ${detail}.`, hint: `The key was rejected: store a valid one with \`${cliCommand('providers set-key')} ${provider.name} --stdin\`, or in ${PROVIDER_SETUP_UI}.`, data }),
        transient: false,
        retrySameProvider: false,
      };
    }
    if (status === 429) {
      return {
        error: new FermixError({ code: 'provider_rate_limited', message: `${who} is rate limiting requests (HTTP 429): ${detail}.`, hint: 'Wait a moment and try again, or configure a fallback provider.', data }),
        transient: true,
        retrySameProvider: true,
        retryAfterMs,
      };
    }
    if (status === 408 || status === 409 || status >= 500) {
      return {
        error: new FermixError({ code: 'provider_unavailable', message: `${who} failed with HTTP ${status}: ${detail}.`, hint: 'Try again in a moment; a fallback provider in [providers] takes over on the first call of a turn.', data }),
        transient: true,
        retrySameProvider: true,
        retryAfterMs,
      };
    }
    const overflowText = `${error.responseBody ?? ''} ${error.message}`;
    if ((status === 400 || status === 413 || status === 422) && CONTEXT_OVERFLOW.test(overflowText)) {
      const stated = statedContextWindow(overflowText);
      return {
        error: new FermixError({ code: 'context_overflow', message: `${who} refused the request because it does not fit the model's context window: ${detail}.`, hint: `Type /compact in the chat window to compact the conversation, or set context_window in [providers.${provider.name}] to the model's real window.`, data: { ...data, ...(stated ? { context_window: stated } : {}) } }),
        transient: false,
        retrySameProvider: false,
      };
    }
    if ((status === 404 || status === 400) && MODEL_MISSING.test(detail)) {
      return {
        error: new FermixError({ code: 'provider_model_not_found', message: `${who}: the server does not have the model "${provider.model}" (HTTP ${status}): ${detail}.`, hint: `Pick a model it serves (\`${cliCommand('providers models')} ${provider.name}\` lists them) and set it in [providers.${provider.name}] or ${PROVIDER_SETUP_UI}; for Ollama, \`ollama pull ${provider.model}\`.`, data: { ...data, model: provider.model } }),
        transient: false,
        retrySameProvider: false,
      };
    }
    if (status === 404) {
      return {
        error: new FermixError({ code: 'provider_not_found', message: `${who} answered 404 (no such API path at ${provider.baseUrl ?? 'its base URL'}): ${detail}.`, hint: `Check the base URL in [providers.${provider.name}] (an OpenAI-compatible server usually ends in /v1); \`${cliCommand('providers models')} ${provider.name}\` tests it.`, data }),
        transient: false,
        retrySameProvider: false,
      };
    }
    return {
      error: new FermixError({ code: 'provider_bad_request', message: `${who} rejected the request (HTTP ${status}): ${detail}.`, hint: `Check the model name in [providers.${provider.name}] (${PROVIDER_SETUP_UI}); \`fermix logs -n 50\` has the details.`, data }),
      transient: false,
      retrySameProvider: false,
    };
  }
  const connection = classifyConnectionFailure(error, provider);
  if (connection) return connection;
  const text = chain(error);
  if (NETWORK_CODES.test(text)) {
    return {
      error: new FermixError({ code: 'provider_unreachable', message: `${who} could not be reached: ${firstLine(text.trim())}.`, hint: `Check that the server at the base_url of [providers.${provider.name}] is running (\`fermix providers models ${provider.name}\` tests it).`, data: { provider: provider.name } }),
      transient: true,
      retrySameProvider: true,
    };
  }
  return {
    error: new FermixError({ code: 'provider_error', message: `${who} failed: ${firstLine((error as Error)?.message ?? String(error))}.`, hint: 'Try again; `fermix logs -n 50` shows the details.', data: { provider: provider.name }, cause: error }),
    transient: false,
    retrySameProvider: false,
  };
}
