/**
 * The `fetch` the hosted rail gives the SDK's Streamable HTTP transport, carried by Net.Guard like the
 * HTTP rail: URL policy (https, no private addresses), a pinned DNS answer, one exchange, no redirects,
 * the 4 MiB response cap (reference §2.5) enforced while reading. The standalone GET SSE stream is
 * answered 405 locally, without a request: this rail takes no server-initiated messages yet (so
 * `tools/list_changed` is not heard; the contract is re-checked on each connect instead).
 * Test port overrides apply only under a minted loopback test policy, as on the HTTP rail.
 */
import { FermixError } from '../../../core/errors.js';
import { checkUrl, DEFAULT_NET_POLICY, resolveAndPin, systemResolver } from '../../../net/index.js';
import { exchange } from '../../../net/pinned-request.js';
import type { HttpRailNet } from '../http/interpreter.js';

export const HOSTED_RESPONSE_CAP = 4 * 1024 * 1024;
/** Reference §2.5: a request body of at most 1 MiB; a larger one is refused before anything is sent. */
export const HOSTED_REQUEST_CAP = 1024 * 1024;

export function hostedFetch(net: HttpRailNet, options: { receiveTimeoutMs?: number } = {}): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method === 'GET') return new Response(null, { status: 405 });
    const policy = net.policy ?? DEFAULT_NET_POLICY;
    const url = checkUrl(String(input instanceof Request ? input.url : input), policy);
    const override = net.testPortOverrides?.[url.hostname];
    if (override !== undefined && policy.allowLoopbackForTests === true) url.port = String(override);
    const headers: Record<string, string> = { 'user-agent': 'fermix-desktop', 'accept-encoding': 'identity' };
    new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, key) => { headers[key] = value; });
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(String(init.body));
    if (body && body.length > HOSTED_REQUEST_CAP) throw new FermixError({ code: 'request_too_large', message: `The request to ${url.hostname} is ${body.length} bytes, more than the hosted rail's ${HOSTED_REQUEST_CAP}-byte cap, so it was not sent.`, hint: 'Send less in one call (shorter text, fewer items).', data: { bytes: body.length } });
    const target = await resolveAndPin(url, policy, net.lookup ?? systemResolver);
    const response = await exchange(target, {
      method, headers, body, maxBytes: HOSTED_RESPONSE_CAP, onTooLarge: 'error', connectTimeoutMs: 10_000, receiveTimeoutMs: options.receiveTimeoutMs ?? 60_000,
      signal: init.signal ?? undefined, ca: net.ca, readBody: (status) => !(status >= 300 && status < 400),
    });
    const out = new Headers();
    for (const [key, value] of Object.entries(response.headers)) if (value !== undefined) out.set(key, Array.isArray(value) ? value.join(', ') : value);
    return new Response(response.status === 204 || response.status === 202 || response.status === 304 ? null : new Uint8Array(response.body), { status: response.status, headers: out });
  }) as typeof fetch;
}
