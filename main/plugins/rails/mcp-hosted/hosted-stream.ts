/**
 * The standalone GET event stream of a hosted-MCP session (server-initiated messages such as
 * `notifications/tools/list_changed`), carried over the same pinned target as every other exchange
 * but streamed, not buffered: the SDK reads it as it arrives. It is held to the SSE limits
 * (limits.ts): ≤256 events, each ≤2 MiB, ≤4 MiB in all; past one the stream is ended with a
 * protocol error (the SDK then reconnects it at most twice, each new stream with a fresh allowance).
 * Headers are checked like any response's. The session's abort signal (close) tears it down.
 */
import type { IncomingMessage } from 'node:http';
import { FermixError } from '../../../core/errors.js';
import { lazyBuiltin } from '../../../daemon/lazy-builtin.js';
import { pinnedLookup, type PinnedTarget } from '../../../net/resolve-and-pin.js';
import { checkResponseHeaders, HOSTED_DEADLINES, HOSTED_LIMITS, protocolError } from './limits.js';

/** Counts SSE events and bytes as chunks arrive; returns the broken limit, or null. */
export function createSseMeter() {
  let total = 0;
  let events = 0;
  let eventBytes = 0;
  let newline = false;
  return (chunk: Uint8Array): string | null => {
    total += chunk.length;
    if (total > HOSTED_LIMITS.sseStreamBytes) return `the event stream is over ${HOSTED_LIMITS.sseStreamBytes} bytes`;
    for (const byte of chunk) {
      if (byte === 0x0a) {
        if (newline) {
          if (eventBytes > 0) events += 1;
          eventBytes = 0;
          if (events > HOSTED_LIMITS.sseEvents) return `the event stream has more than ${HOSTED_LIMITS.sseEvents} events`;
        }
        newline = true;
      } else if (byte !== 0x0d) {
        newline = false;
        eventBytes += 1;
        if (eventBytes > HOSTED_LIMITS.sseEventBytes) return `one event is over ${HOSTED_LIMITS.sseEventBytes} bytes`;
      }
    }
    return null;
  };
}

// node:https (and TLS with it) loads with the first hosted request.
const https = lazyBuiltin<typeof import('node:https')>('node:https');

export function openEventStream(plugin: string, target: PinnedTarget, headers: Record<string, string>, options: { signal?: AbortSignal; ca?: string | Buffer | Array<string | Buffer> }): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { url } = target;
    const request = https().request({
      method: 'GET', host: target.hostname, port: url.port === '' ? 443 : Number(url.port), path: `${url.pathname}${url.search}`,
      headers: { ...headers, host: url.host }, agent: false, lookup: pinnedLookup(target), servername: target.hostname, ca: options.ca,
      maxHeaderSize: HOSTED_LIMITS.headerBlockBytes,
    });
    const fail = (error: unknown) => reject(error instanceof FermixError ? error : new FermixError({ code: 'network', message: `network: the event stream to ${target.hostname} failed (${(error as { code?: string }).code ?? String(error)}).`, hint: 'Fermix reconnects it on its own.', data: { host: target.hostname } }));
    const connectTimer = setTimeout(() => request.destroy(new FermixError({ code: 'timeout', message: `Timed out after ${HOSTED_DEADLINES.connectMs} ms opening the event stream to ${target.hostname}.`, hint: 'Fermix reconnects it on its own.' })), HOSTED_DEADLINES.connectMs);
    const onAbort = () => request.destroy();
    if (options.signal?.aborted) {
      request.destroy();
      return reject(new FermixError({ code: 'cancelled', message: 'The event stream was cancelled.', hint: 'The call it belonged to was stopped; run it again if it is still needed.' }));
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => {
      clearTimeout(connectTimer);
      fail(error);
    });
    request.on('response', (response: IncomingMessage) => {
      clearTimeout(connectTimer);
      const status = response.statusCode ?? 0;
      try {
        checkResponseHeaders(plugin, response.headers);
      } catch (error) {
        request.destroy();
        return reject(error);
      }
      const out = new Headers();
      for (const [key, value] of Object.entries(response.headers)) if (value !== undefined) out.set(key, Array.isArray(value) ? value.join(', ') : value);
      if (status !== 200) {
        response.resume();
        return resolve(new Response(null, { status, headers: out }));
      }
      const meter = createSseMeter();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          response.on('data', (chunk: Buffer) => {
            const broken = meter(chunk);
            if (broken) {
              request.destroy();
              return controller.error(protocolError(plugin, broken));
            }
            controller.enqueue(new Uint8Array(chunk));
          });
          response.on('end', () => controller.close());
          response.on('error', (error) => controller.error(error));
          response.on('close', () => {
            options.signal?.removeEventListener('abort', onAbort);
            try {
              controller.close();
            } catch {
              // already closed or errored
            }
          });
        },
        cancel() {
          request.destroy();
        },
      });
      resolve(new Response(body, { status, headers: out }));
    });
    request.end();
  });
}
