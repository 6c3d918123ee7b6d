/**
 * The `fetch` the hosted rail gives the SDK's Streamable HTTP transport, carried by Net.Guard like the
 * HTTP rail: URL policy (https, no private addresses), a pinned DNS answer, one exchange, no redirects,
 * the 4 MiB response cap enforced while reading, and the rest of reference §2.5's limits (limits.ts):
 * a request ≤1 MiB and depth ≤64 refused before it is sent; response headers ≤64 KiB (≤8 KiB a value,
 * session id ≤256 bytes); an SSE body ≤256 events of ≤2 MiB. A 429 or 503 is `remote_busy` carrying
 * the Retry-After wait (≤300 s, 60 s when absent) for the pacer to honour.
 * The standalone GET event stream (server-initiated messages: `notifications/tools/list_changed`) is
 * streamed over the same pinned target by hosted-stream.ts, held to the SSE limits as it arrives;
 * the service may also send notifications on a POST's event stream.
 * Test port overrides apply only under a minted loopback test policy, as on the HTTP rail.
 */
import { FermixError } from '../../../core/errors.js';
import { checkUrl, DEFAULT_NET_POLICY, resolveAndPin, systemResolver } from '../../../net/index.js';
import { exchange } from '../../../net/pinned-request.js';
import type { HttpRailNet } from '../http/interpreter.js';
import { openEventStream } from './hosted-stream.js';
import { checkRequestBody, checkResponseHeaders, checkSseBody, HOSTED_DEADLINES, HOSTED_LIMITS, protocolError, retryAfterMs } from './limits.js';

export const HOSTED_RESPONSE_CAP = HOSTED_LIMITS.responseBytes;
export const HOSTED_REQUEST_CAP = HOSTED_LIMITS.requestBytes;

export function remoteBusy(plugin: string, waitMs: number, status: number | null): FermixError {
  const seconds = Math.ceil(waitMs / 1000);
  return new FermixError({
    code: 'remote_busy',
    message: status === null ? `${plugin} asked Fermix to wait before calling again, so this call was not sent.` : `${plugin} is rate-limiting or busy (HTTP ${status}).`,
    hint: `Wait ${seconds} s (the service's Retry-After), then try again.`,
    data: { plugin, retry_after_ms: waitMs, ...(status === null ? {} : { status }) },
  });
}

export function hostedFetch(net: HttpRailNet, options: { receiveTimeoutMs?: number; plugin?: string } = {}): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const policy = net.policy ?? DEFAULT_NET_POLICY;
    const url = checkUrl(String(input instanceof Request ? input.url : input), policy);
    const plugin = options.plugin ?? url.hostname;
    const override = net.testPortOverrides?.[url.hostname];
    if (override !== undefined && policy.allowLoopbackForTests === true) url.port = String(override);
    const headers: Record<string, string> = { 'user-agent': 'fermix-desktop', 'accept-encoding': 'identity' };
    new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, key) => { headers[key] = value; });
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(String(init.body));
    if (body) checkRequestBody(url.hostname, body);
    const target = await resolveAndPin(url, policy, net.lookup ?? systemResolver);
    if (method === 'GET') return openEventStream(plugin, target, headers, { signal: init.signal ?? undefined, ca: net.ca });
    let response;
    try {
      response = await exchange(target, {
        method, headers, body, maxBytes: HOSTED_RESPONSE_CAP, onTooLarge: 'error', connectTimeoutMs: HOSTED_DEADLINES.connectMs, receiveTimeoutMs: options.receiveTimeoutMs ?? HOSTED_DEADLINES.callMs,
        signal: init.signal ?? undefined, ca: net.ca, readBody: (status) => !(status >= 300 && status < 400), maxHeaderSize: HOSTED_LIMITS.headerBlockBytes,
      });
    } catch (error) {
      // Node's parser stops at the 64 KiB header block: a broken peer, not an unreachable one.
      if ((error as FermixError).data?.error_code === 'HPE_HEADER_OVERFLOW') throw protocolError(plugin, `the response headers are over ${HOSTED_LIMITS.headerBlockBytes} bytes`);
      throw error;
    }
    checkResponseHeaders(plugin, response.headers);
    if (response.status === 429 || response.status === 503) {
      const header = response.headers['retry-after'];
      throw remoteBusy(plugin, retryAfterMs(Array.isArray(header) ? header[0] : header), response.status);
    }
    const type = String(response.headers['content-type'] ?? '');
    if (type.includes('text/event-stream')) checkSseBody(plugin, response.body);
    const out = new Headers();
    for (const [key, value] of Object.entries(response.headers)) if (value !== undefined) out.set(key, Array.isArray(value) ? value.join(', ') : value);
    return new Response(response.status === 204 || response.status === 202 || response.status === 304 ? null : new Uint8Array(response.body), { status: response.status, headers: out });
  }) as typeof fetch;
}
