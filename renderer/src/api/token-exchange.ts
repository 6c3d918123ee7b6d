import type { WireError } from '../../../main/core/errors.js';

/** The slice of the browser this step needs; tests pass jsdom's window with their own fetch. */
export interface TokenExchangeScope {
  location: Pick<Location, 'hash' | 'pathname' | 'search'>;
  history: Pick<History, 'replaceState' | 'state'>;
  fetch: typeof fetch;
}

export type TokenExchangeResult =
  | { outcome: 'no-token' }
  | { outcome: 'exchanged' }
  | { outcome: 'refused'; error: WireError }
  | { outcome: 'unreachable'; error: WireError };

/** `#token=…` as printed by `fermix daemon`; other hash parameters are kept. */
export function readTokenFromHash(hash: string): { token: string | undefined; rest: string } {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const token = params.get('token') ?? undefined;
  params.delete('token');
  const rest = params.toString();
  return { token: token || undefined, rest: rest ? `#${rest}` : '' };
}

export const unreachableError: WireError = {
  code: 'daemon_unreachable',
  message: 'The Fermix daemon is not answering.',
  hint: 'Start it with `fermix daemon` (or `npm start`), then open the URL it prints.',
};

/**
 * Trades the URL's one-time token for the daemon's HttpOnly session cookie, once per page load.
 * The token leaves the address bar before the request goes out: the URL is visible (screen shares,
 * history, copied links) and the cookie, not the token, is what later requests and reloads rely on.
 */
export async function exchangeTokenFromLocation(scope: TokenExchangeScope): Promise<TokenExchangeResult> {
  const { token, rest } = readTokenFromHash(scope.location.hash);
  if (!token) return { outcome: 'no-token' };
  scope.history.replaceState(scope.history.state, '', `${scope.location.pathname}${scope.location.search}${rest}`);
  let response: Response;
  try {
    response = await scope.fetch('/auth/session', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
  } catch {
    return { outcome: 'unreachable', error: unreachableError };
  }
  if (response.ok) return { outcome: 'exchanged' };
  const body = (await response.json().catch(() => undefined)) as { error?: WireError } | undefined;
  return {
    outcome: 'refused',
    error: body?.error ?? { code: 'unauthorized', message: `The daemon refused the token (HTTP ${response.status}).`, hint: 'Open the URL that `fermix daemon` printed, or run `fermix status` to see it.' },
  };
}
