import { readBridge } from './bridge.js';
import { createHttpTransport } from './http-transport.js';
import { createIpcTransport } from './ipc-transport.js';
import { exchangeTokenFromLocation, readTokenFromHash } from './token-exchange.js';
import type { AppTransport } from './transport-types.js';

export type { AppTransport, LinkState } from './transport-types.js';

/**
 * Picks how this window reaches the daemon: the preload bridge inside Electron, else HTTP to the daemon
 * that served the page, after trading the URL's token for a session cookie. Call once per page load.
 */
export async function pickTransport(scope: Window & typeof globalThis = window): Promise<AppTransport> {
  const bridge = readBridge(scope);
  if (bridge) return createIpcTransport(bridge);
  const fetchFromWindow: typeof fetch = (input, init) => scope.fetch(input, init);
  const exchange = await exchangeTokenFromLocation({ location: scope.location, history: scope.history, fetch: fetchFromWindow });
  const transport = createHttpTransport({ location: scope.location, fetch: fetchFromWindow, WebSocket: scope.WebSocket });
  // A refused token is not fatal by itself: a cookie from an earlier visit may still be valid. The
  // connection store shows this reason only if the daemon then refuses the session too.
  if (exchange.outcome === 'refused') transport.signInProblem = exchange.error;
  // Pasting a newly printed URL (after `fermix restart`) into this tab changes only the hash, which loads
  // nothing; reload so the start-up path above trades the new token.
  scope.addEventListener('hashchange', () => {
    if (readTokenFromHash(scope.location.hash).token) scope.location.reload();
  });
  return transport;
}
