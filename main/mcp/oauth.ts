/**
 * OAuth for operator Streamable HTTP servers through the SDK's client auth (`authProvider`): the SDK
 * does discovery (RFC 9728 protected-resource metadata, RFC 8414), dynamic client registration, PKCE,
 * the code exchange and refresh; this provider only keeps what it must remember in the secret store
 * (never in config.toml): `MCP_OAUTH_<SERVER>_TOKENS`, `..._CLIENT`, `..._VERIFIER`, `..._DISCOVERY`,
 * each a JSON string, stored exactly as the SDK hands them over (it stamps them with the issuer).
 *
 * Two modes. `background` is what the supervisor's connections use: stored tokens are sent and
 * refreshed by the SDK on a 401, but nothing interactive may happen, so a missing or refused sign-in
 * ends the attempt with `needs_auth` (and no client is registered just to find that out). `login` is
 * `fermix mcp auth login` / the window's Sign in: it ignores stored tokens, registers a client for this
 * loopback redirect when the stored one names another, and hands the authorization URL to the caller.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { FermixError } from '../core/errors.js';
import type { SecretReader } from './launch.js';

/** Used only when no client was ever registered (a background attempt never gets as far as using it). */
export const OAUTH_FALLBACK_REDIRECT_URL = 'http://127.0.0.1/callback';

export const OAUTH_ITEMS = ['TOKENS', 'CLIENT', 'VERIFIER', 'DISCOVERY'] as const;
export type OAuthItem = (typeof OAUTH_ITEMS)[number];

export function oauthSecretName(server: string, item: OAuthItem): string {
  return `MCP_OAUTH_${server.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${item}`;
}

export function needsSignIn(server: string, detail: string): FermixError {
  return new FermixError({
    code: 'needs_auth',
    message: `The MCP server ${server} needs you to sign in (${detail}).`,
    hint: `Run \`fermix mcp auth login ${server}\`, or press Sign in on its card in Plugins → MCP servers.`,
    data: { server },
  });
}

export function readOAuthItem<T>(secrets: SecretReader, server: string, item: OAuthItem): T | undefined {
  const raw = secrets.get(oauthSecretName(server, item));
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    // An unreadable item is no sign-in: the next login replaces it.
    return undefined;
  }
}

export function hasStoredTokens(secrets: SecretReader, server: string): boolean {
  return readOAuthItem<OAuthTokens>(secrets, server, 'TOKENS')?.access_token !== undefined;
}

type RegisteredClient = OAuthClientInformationMixed & { redirect_uris?: string[] };

export interface LoginHooks {
  redirectUrl: string;
  state: string;
  /** The SDK's authorization URL, for the browser. */
  onAuthorizationUrl: (url: URL) => void;
}

export function createSecretStoreOAuthProvider(server: string, secrets: SecretReader, login?: LoginHooks): OAuthClientProvider {
  const read = <T>(item: OAuthItem) => readOAuthItem<T>(secrets, server, item);
  const write = (item: OAuthItem, value: unknown) => {
    if (!secrets.set) throw new FermixError({ code: 'secret_store_read_only', message: 'The secret store cannot be written from here.', hint: 'Run the daemon with a writable secret store (`fermix doctor` shows it).' });
    secrets.set(oauthSecretName(server, item), JSON.stringify(value));
  };
  const storedClient = () => read<RegisteredClient>('CLIENT');
  const redirectUrl = () => login?.redirectUrl ?? storedClient()?.redirect_uris?.[0] ?? OAUTH_FALLBACK_REDIRECT_URL;
  return {
    get redirectUrl() {
      return redirectUrl();
    },
    get clientMetadata(): OAuthClientMetadata {
      return { client_name: 'Fermix desktop', redirect_uris: [redirectUrl()], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
    },
    clientInformation: () => {
      const client = storedClient();
      if (login) {
        // A client registered for another loopback port would be refused at the authorization endpoint
        // (exact redirect_uri match): undefined makes the SDK register one for this redirect.
        return client?.redirect_uris && !client.redirect_uris.includes(login.redirectUrl) ? undefined : client;
      }
      // Background: registering a client only to learn that nobody signed in would leave one behind per attempt.
      if (!client) throw needsSignIn(server, 'nobody has signed in yet');
      return client;
    },
    saveClientInformation: (info) => write('CLIENT', info),
    // During a login the stored tokens are not used: a fresh sign-in is what was asked for.
    tokens: () => (login ? undefined : read<OAuthTokens>('TOKENS')),
    saveTokens: (tokens) => write('TOKENS', tokens),
    saveCodeVerifier: (verifier) => write('VERIFIER', verifier),
    codeVerifier: () => {
      const verifier = read<string>('VERIFIER');
      if (!verifier) throw needsSignIn(server, 'no sign-in is in progress');
      return verifier;
    },
    state: login ? () => login.state : undefined,
    saveDiscoveryState: (state) => write('DISCOVERY', state),
    discoveryState: () => read<OAuthDiscoveryState>('DISCOVERY'),
    invalidateCredentials: (scope) => {
      // The SDK calls this when the server refused a client or grant; the next attempt starts clean.
      const items: OAuthItem[] = scope === 'all' ? [...OAUTH_ITEMS] : scope === 'client' ? ['CLIENT'] : scope === 'tokens' ? ['TOKENS'] : scope === 'verifier' ? ['VERIFIER'] : ['DISCOVERY'];
      for (const item of items) secrets.clear?.(oauthSecretName(server, item));
    },
    redirectToAuthorization: (url) => {
      if (login) return login.onAuthorizationUrl(url);
      // The stored sign-in was refused (or had no refresh token): only the person can sign in again.
      throw needsSignIn(server, `${url.origin} asks for a new sign-in`);
    },
  };
}
