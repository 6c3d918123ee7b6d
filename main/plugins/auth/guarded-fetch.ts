/**
 * The `fetch` oauth4webapi calls (its `customFetch` option), carried by Net.Guard's pieces like the
 * HTTP rail: the URL policy, a pinned DNS answer, one exchange with no redirects, a 256 KiB cap. The
 * test port overrides apply only under a minted loopback test policy, exactly as on the rail.
 */
import { checkUrl, DEFAULT_NET_POLICY, resolveAndPin, systemResolver } from '../../net/index.js';
import { exchange } from '../../net/pinned-request.js';
import type { HttpRailNet } from '../rails/http/interpreter.js';

const TOKEN_RESPONSE_CAP = 256 * 1024;

export function netGuardFetch(net: HttpRailNet) {
  return async (input: string, init: { method?: string; headers?: Headers | Record<string, string>; body?: unknown; signal?: AbortSignal | null }): Promise<Response> => {
    const policy = net.policy ?? DEFAULT_NET_POLICY;
    const url = checkUrl(input, policy);
    const override = net.testPortOverrides?.[url.hostname];
    if (override !== undefined && policy.allowLoopbackForTests === true) url.port = String(override);
    const headers: Record<string, string> = { 'user-agent': 'fermix-desktop', 'accept-encoding': 'identity' };
    new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, key) => { headers[key] = value; });
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(String(init.body));
    const target = await resolveAndPin(url, policy, net.lookup ?? systemResolver);
    const response = await exchange(target, {
      method: init.method ?? 'GET', headers, body, maxBytes: TOKEN_RESPONSE_CAP, onTooLarge: 'error', connectTimeoutMs: 5_000, receiveTimeoutMs: 20_000,
      signal: init.signal ?? undefined, ca: net.ca, readBody: (status) => !(status >= 300 && status < 400),
    });
    const out = new Headers();
    for (const [key, value] of Object.entries(response.headers)) if (value !== undefined) out.set(key, Array.isArray(value) ? value.join(', ') : value);
    let status = response.status;
    // GitHub answers token-endpoint errors with HTTP 200 and {"error": …}; RFC 6749 §5.2 says 400, and
    // oauth4webapi reads the error only from a non-200 answer, so such a body is given the 400 it means.
    if (status === 200 && /json/.test(out.get('content-type') ?? '')) {
      try {
        const parsed = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
        if (typeof parsed.error === 'string' && parsed.access_token === undefined) status = 400;
      } catch {
        // Not JSON after all: oauth4webapi reports that itself.
      }
    }
    return new Response(status === 204 || status === 304 ? null : new Uint8Array(response.body), { status, headers: out });
  };
}
