import type { IncomingHttpHeaders } from 'node:http';
import type { OnTooLarge } from './capped-body.js';
import { blockedUrl, netError } from './net-errors.js';
import { exchange } from './pinned-request.js';
import { resolveAndPin, systemResolver, type HostResolver, type PinnedTarget } from './resolve-and-pin.js';
import { checkUrl, DEFAULT_NET_POLICY, type NetPolicy } from './url-policy.js';

/** web_fetch's numbers (reference §2.13 and §6). */
export const NET_DEFAULTS = Object.freeze({
  maxBytes: 1_048_576,
  maxRedirects: 5,
  connectTimeoutMs: 3_000,
  receiveTimeoutMs: 15_000,
});

export interface GuardedFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Decoded body bytes kept at most; default 1,048,576. */
  maxBytes?: number;
  /** 'error' (default) refuses a larger body with `body_too_large`; 'truncate' keeps the first maxBytes. */
  onTooLarge?: OnTooLarge;
  maxRedirects?: number;
  /** Per hop, once for DNS and once for TCP (+ TLS); default 3,000 ms. */
  connectTimeoutMs?: number;
  /** Deadline for each hop's whole response once connected; default 15,000 ms. */
  receiveTimeoutMs?: number;
  signal?: AbortSignal;
  /** Default DEFAULT_NET_POLICY. Loopback opens only with test-policy.ts's createTestPolicy(). */
  policy?: NetPolicy;
  /** Host-name resolver; default the system's (dns.lookup, all addresses). Results are still checked. */
  lookup?: HostResolver;
  /** Extra trusted CAs (tests); certificates are always verified. */
  ca?: string | Buffer | Array<string | Buffer>;
  userAgent?: string;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The final URL, after redirects. */
  url: string;
  body: Buffer;
  truncated: boolean;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Credentials must not follow a redirect to another origin (the trace-redaction list of reference §2.13).
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'x-auth-token'];

/**
 * Fetches a URL through Net.Guard: every hop's URL is checked, its host resolved once and pinned, and
 * redirects are followed by hand so each Location gets the same checks as the first URL.
 */
export async function guardedFetch(rawUrl: string, options: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const policy = options.policy ?? DEFAULT_NET_POLICY;
  const resolver = options.lookup ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? NET_DEFAULTS.maxRedirects;
  const connectTimeoutMs = options.connectTimeoutMs ?? NET_DEFAULTS.connectTimeoutMs;
  let url = checkUrl(rawUrl, policy);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body === undefined ? undefined : Buffer.from(options.body);
  let headers = requestHeaders(options);

  for (let redirects = 0; ; redirects += 1) {
    const target = await withDeadline(resolveAndPin(url, policy, resolver), connectTimeoutMs, url, options.signal);
    const response = await exchange(target, {
      method,
      headers,
      body,
      maxBytes: options.maxBytes ?? NET_DEFAULTS.maxBytes,
      onTooLarge: options.onTooLarge ?? 'error',
      connectTimeoutMs,
      receiveTimeoutMs: options.receiveTimeoutMs ?? NET_DEFAULTS.receiveTimeoutMs,
      signal: options.signal,
      ca: options.ca,
      readBody: (status, responseHeaders) => !isRedirect(status, responseHeaders),
    });
    if (!isRedirect(response.status, response.headers)) {
      return { status: response.status, headers: response.headers, url: url.href, body: response.body, truncated: response.truncated };
    }
    const next = nextUrl(url, String(response.headers.location), policy);
    if (redirects >= maxRedirects) throw redirectLimit(maxRedirects, next.href);
    // 303 always, and 301/302 after a POST, become GET without a body: what browsers and fetch() do.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers = withoutHeaders(headers, ['content-type', 'content-length']);
    }
    if (next.origin !== url.origin) headers = withoutHeaders(headers, CREDENTIAL_HEADERS);
    url = next;
  }
}

function isRedirect(status: number, headers: IncomingHttpHeaders): boolean {
  return REDIRECT_STATUSES.has(status) && typeof headers.location === 'string' && headers.location !== '';
}

/** Relative Locations resolve against the URL that answered; the result goes through the full URL policy. */
function nextUrl(current: URL, location: string, policy: NetPolicy): URL {
  let resolved: string;
  try {
    resolved = new URL(location, current).href;
  } catch {
    throw blockedUrl(location, `the redirect from ${current.href} points to an invalid URL`);
  }
  return checkUrl(resolved, policy);
}

function requestHeaders(options: GuardedFetchOptions): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': options.userAgent ?? 'fermix-desktop',
    accept: 'text/html, application/json;q=0.9, text/*;q=0.8, */*;q=0.5',
    // Compressed transfers are decoded under the same byte cap (capped-body.ts), so bombs stop at the cap.
    'accept-encoding': 'gzip, deflate, br',
  };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  // Host is always the URL's host (pinned-request.ts); a caller-supplied one would decouple it from the check.
  delete headers.host;
  return headers;
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));
}

function redirectLimit(max: number, next: string) {
  return netError('redirect_limit', `Stopped after ${max} redirects (the next one pointed to ${next}).`,
    'The site redirects in a loop or too often; fetch the final URL directly if you know it.', {
      max_redirects: max,
      next_url: next,
    });
}

/** DNS cannot be cancelled (getaddrinfo runs on the libuv pool), so we stop waiting for it instead. */
function withDeadline(pending: Promise<PinnedTarget>, ms: number, url: URL, signal?: AbortSignal): Promise<PinnedTarget> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(netError('cancelled', 'The request was cancelled.', ''));
    const onAbort = () => settle(() => reject(netError('cancelled', 'The request was cancelled.', '')));
    const timer = setTimeout(() => settle(() => reject(netError('timeout', `Timed out after ${ms} ms resolving ${url.hostname}.`,
      'The DNS server is slow or unreachable; check this machine\'s network settings and try again.', {
        phase: 'dns',
        timeout_ms: ms,
        host: url.hostname,
      }))), ms);
    let done = false;
    const settle = (outcome: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    pending.then((value) => settle(() => resolve(value)), (error: unknown) => settle(() => reject(error)));
  });
}
