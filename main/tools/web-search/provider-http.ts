/**
 * Every web_search request goes through here, and so through Net.Guard (guardedFetch): the vendor host is
 * checked, resolved once and pinned like any web_fetch URL. This is also where HTTP statuses and transport
 * failures become the failure tags that decide whether the search degrades to DuckDuckGo.
 */
import { isFermixError } from '../../core/errors.js';
import { guardedFetch, type GuardedResponse } from '../../net/index.js';
import { isRecord, plainText, searchError, shapeChanged, type BackendCall, type SearchBackend } from './backend.js';

/** Search answers are small; 2 MiB leaves room for a verbose provider without reading a runaway body. */
const SEARCH_LIMITS = {
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 3,
  connectTimeoutMs: 3_000,
  receiveTimeoutMs: 15_000,
} as const;

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  accept?: string;
}

/** Performs one request and throws the tagged error for any non-2xx status or transport failure. */
export async function providerRequest(backend: SearchBackend, call: BackendCall, request: ProviderRequest): Promise<GuardedResponse> {
  const headers: Record<string, string> = { accept: request.accept ?? 'application/json', ...request.headers };
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  let response: GuardedResponse;
  try {
    response = await guardedFetch(request.url, {
      ...call.net,
      ...SEARCH_LIMITS,
      method: request.method,
      headers,
      body: request.json === undefined ? undefined : JSON.stringify(request.json),
      onTooLarge: 'error',
    });
  } catch (error) {
    throw transportFailure(backend, error);
  }
  checkStatus(backend, response);
  return response;
}

function transportFailure(backend: SearchBackend, error: unknown): unknown {
  // A cancelled turn stays cancelled: no fall-back search after the person pressed stop.
  if (!isFermixError(error) || error.code === 'cancelled') return error;
  if (error.code === 'body_too_large') {
    return searchError('provider_error', backend, `${backend.label} sent a response larger than ${SEARCH_LIMITS.maxBytes} bytes.`, {
      reason: error.code,
    }, error);
  }
  // timeout, DNS failure, refused connection, TLS failure, a vendor host that resolves to a blocked address
  // (DNS filters answer 0.0.0.0): all mean "this provider cannot be reached from here".
  return searchError('network', backend, `${backend.label} could not be reached: ${error.message}`, {
    reason: error.code,
    ...(error.data ? { net: error.data } : {}),
  }, error);
}

function checkStatus(backend: SearchBackend, response: GuardedResponse): void {
  const { status } = response;
  if (status >= 200 && status < 300) return;
  const detail = errorDetail(response);
  const data = detail === '' ? { status } : { status, detail };
  if ((status === 401 || status === 403) && backend.keyName) {
    throw searchError('auth_failed', backend, `${backend.label} rejected the key in ${backend.keyName} (HTTP ${status}).`, {
      ...data,
      key_name: backend.keyName,
    });
  }
  if (status === 429 || status === 401 || status === 403) {
    const retryAfter = response.headers['retry-after'];
    throw searchError('rate_limited', backend, `${backend.label} is rate limiting or challenging Fermix (HTTP ${status}).`, {
      ...data,
      ...(typeof retryAfter === 'string' ? { retry_after: retryAfter } : {}),
    });
  }
  const why = status === 402 ? ' (payment required: the account is out of credits)' : '';
  throw searchError('provider_error', backend, `${backend.label} returned HTTP ${status}${why}.`, data);
}

/** A short excerpt of the vendor's error body, for logs and `data`; never the whole page. */
function errorDetail(response: GuardedResponse): string {
  const text = response.body.subarray(0, 4096).toString('utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      const message = parsed.error ?? parsed.message ?? parsed.detail;
      if (typeof message === 'string') return plainText(message, 300);
      if (isRecord(message) && typeof message.message === 'string') return plainText(message.message, 300);
      if (isRecord(message) && typeof message.detail === 'string') return plainText(message.detail, 300);
    }
  } catch {
    // not JSON: fall through to the text
  }
  return plainText(text, 300);
}

/** The body as JSON, or `parser_changed` when the provider stopped answering in JSON. */
export function parseJson(backend: SearchBackend, response: GuardedResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw shapeChanged(backend, 'the body is not JSON');
  }
}

/** The body as a JSON object with a list under `field`, or `parser_changed`. */
export function listField(backend: SearchBackend, body: unknown, field: string): Record<string, unknown>[] {
  if (!isRecord(body)) throw shapeChanged(backend, 'the body is not a JSON object');
  const list = body[field];
  if (!Array.isArray(list)) throw shapeChanged(backend, `\`${field}\` is missing or not a list`);
  return list.filter(isRecord);
}
