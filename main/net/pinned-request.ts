import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { isFermixError, type FermixError } from '../core/errors.js';
import { readCappedBody, type OnTooLarge } from './capped-body.js';
import { netError } from './net-errors.js';
import { pinnedLookup, type PinnedTarget } from './resolve-and-pin.js';
import { lazyBuiltin } from '../daemon/lazy-builtin.js';

// node:https (and TLS with it) loads with the first https request.
const loadHttps = lazyBuiltin<typeof import('node:https')>('node:https');

export interface ExchangeOptions {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  maxBytes: number;
  onTooLarge: OnTooLarge;
  connectTimeoutMs: number;
  receiveTimeoutMs: number;
  signal?: AbortSignal;
  /** Extra trusted CAs for TLS (tests pass their own CA); the system store is used otherwise. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Whether to read this response's body; redirect bodies are discarded unread. */
  readBody: (status: number, headers: IncomingHttpHeaders) => boolean;
  /** The response header block's cap in bytes (Node's parser default, 16 KiB, when absent); the hosted MCP rail allows 64 KiB. */
  maxHeaderSize?: number;
}

export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

/**
 * One HTTP exchange with a pinned target: no redirects, no retries (a retried timeout doubles the wait).
 * Timeouts: `connectTimeoutMs` until TCP (and TLS, for https) is up; then `receiveTimeoutMs` as a deadline
 * for the whole response — a deadline, not an idle timer, so a server dripping one byte at a time cannot
 * hold a tool call open.
 */
export function exchange(target: PinnedTarget, options: ExchangeOptions): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(cancelled());
    const { url } = target;
    const secure = url.protocol === 'https:';
    const literal = target.address === target.hostname;
    let failure: FermixError | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;

    const request = (secure ? loadHttps() : http).request({
      method: options.method,
      host: target.hostname,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      // Host stays the URL's own host (with port), whatever address the socket reaches.
      headers: { ...options.headers, host: url.host },
      // A fresh socket per exchange: a pooled socket could belong to an earlier, differently pinned address.
      agent: false,
      lookup: literal ? undefined : pinnedLookup(target),
      // SNI and the certificate check use the original name; RFC 6066 forbids IP literals as SNI.
      servername: secure && !literal ? target.hostname : undefined,
      ca: options.ca,
      maxHeaderSize: options.maxHeaderSize,
    });

    const fail = (error: FermixError) => {
      failure ??= error;
      request.destroy(error);
    };
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      request.destroy();
      outcome();
    };
    const onAbort = () => fail(cancelled());
    options.signal?.addEventListener('abort', onAbort, { once: true });

    timer = setTimeout(() => fail(timedOut('connect', target, options.connectTimeoutMs)), options.connectTimeoutMs);
    request.on('socket', (socket: Socket) => {
      socket.once(secure ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        timer = setTimeout(() => fail(timedOut('receive', target, options.receiveTimeoutMs)), options.receiveTimeoutMs);
      });
    });
    request.on('error', (error) => finish(() => reject(failure ?? mapError(error, target))));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      if (!options.readBody(status, response.headers)) {
        return finish(() => resolve({ status, headers: response.headers, body: Buffer.alloc(0), truncated: false }));
      }
      readCappedBody(response, options.maxBytes, options.onTooLarge).then(
        ({ body, truncated }) => finish(() => resolve({ status, headers: response.headers, body, truncated })),
        (error: unknown) => finish(() => reject(failure ?? mapError(error, target))),
      );
    });
    request.end(options.body);
  });
}

function cancelled(): FermixError {
  return netError('cancelled', 'The request was cancelled.', '');
}

function timedOut(phase: 'connect' | 'receive', target: PinnedTarget, ms: number): FermixError {
  const message = phase === 'connect'
    ? `Timed out after ${ms} ms connecting to ${target.hostname}.`
    : `Timed out after ${ms} ms waiting for the response from ${target.hostname}.`;
  return netError('timeout', message, 'The site is slow or unreachable; try again later or fetch a smaller resource.', {
    phase,
    timeout_ms: ms,
    host: target.hostname,
  });
}

function mapError(error: unknown, target: PinnedTarget): FermixError {
  if (isFermixError(error)) return error;
  const code = (error as { code?: string }).code ?? 'unknown';
  const detail = error instanceof Error ? error.message : String(error);
  const tls = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/u.test(code);
  const message = tls
    ? `The TLS certificate of ${target.hostname} could not be verified (${code}).`
    : `network: the connection to ${target.hostname} failed (${code}).`;
  const hint = tls
    ? 'The site presents an untrusted or mismatched certificate; web_fetch does not bypass certificate checks.'
    : 'Check that the site is up and reachable from this machine, then try again.';
  return netError('network', message, hint, { host: target.hostname, address: target.address, error_code: code, detail }, error);
}
