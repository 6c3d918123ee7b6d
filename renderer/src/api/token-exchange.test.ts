// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { exchangeTokenFromLocation, readTokenFromHash } from './token-exchange.js';

interface Call {
  url: string;
  init: RequestInit | undefined;
  hashAtCall: string;
}

/** A stand-in for the daemon's POST /auth/session that records what the page sent and when. */
function fakeDaemon(answer: () => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init, hashAtCall: window.location.hash });
    return answer();
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const scope = (fetch: typeof globalThis.fetch) => ({ location: window.location, history: window.history, fetch });

afterEach(() => window.history.replaceState(null, '', '/'));

describe('token exchange', () => {
  it('posts the token once, with the cookie policy, and drops it from the URL before the request goes out', async () => {
    window.history.replaceState(null, '', '/#token=abc-123_XYZ');
    const daemon = fakeDaemon(() => json(200, { ok: true }));
    const result = await exchangeTokenFromLocation(scope(daemon.fetch));
    expect(result).toEqual({ outcome: 'exchanged' });
    expect(daemon.calls).toHaveLength(1);
    expect(daemon.calls[0].url).toBe('/auth/session');
    expect(daemon.calls[0].init).toMatchObject({ method: 'POST', credentials: 'same-origin' });
    expect(JSON.parse(String(daemon.calls[0].init?.body))).toEqual({ token: 'abc-123_XYZ' });
    expect(daemon.calls[0].hashAtCall).toBe('');
    expect(window.location.href).toBe('http://localhost:3000/');
  });

  it('does nothing without a token (a reload relies on the cookie)', async () => {
    window.history.replaceState(null, '', '/?x=1');
    const daemon = fakeDaemon(() => json(200, { ok: true }));
    expect(await exchangeTokenFromLocation(scope(daemon.fetch))).toEqual({ outcome: 'no-token' });
    expect(daemon.calls).toHaveLength(0);
    expect(window.location.search).toBe('?x=1');
  });

  it("returns the daemon's refusal with its hint, and still drops the token", async () => {
    window.history.replaceState(null, '', '/#token=guess');
    const refusal = { code: 'unauthorized', message: 'That token is not valid for this daemon run.', hint: 'Run `fermix status`.' };
    const daemon = fakeDaemon(() => json(401, { error: refusal }));
    expect(await exchangeTokenFromLocation(scope(daemon.fetch))).toEqual({ outcome: 'refused', error: refusal });
    expect(window.location.hash).toBe('');
  });

  it('reports an unreachable daemon with a hint naming the command that starts it', async () => {
    window.history.replaceState(null, '', '/#token=abc');
    const daemon = fakeDaemon(() => Promise.reject(new TypeError('Failed to fetch')));
    const result = await exchangeTokenFromLocation(scope(daemon.fetch));
    expect(result.outcome).toBe('unreachable');
    expect(result.outcome === 'unreachable' && result.error.hint).toContain('fermix daemon');
  });

  it('keeps other hash parameters and the query', () => {
    expect(readTokenFromHash('#token=t1&screen=chat')).toEqual({ token: 't1', rest: '#screen=chat' });
    expect(readTokenFromHash('#screen=chat')).toEqual({ token: undefined, rest: '#screen=chat' });
    expect(readTokenFromHash('')).toEqual({ token: undefined, rest: '' });
    expect(readTokenFromHash('#token=')).toEqual({ token: undefined, rest: '' });
  });
});
