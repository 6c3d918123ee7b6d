/**
 * Plugin OAuth 2.0 (reference §2.16): authorization code with PKCE (S256) and a loopback redirect
 * (RFC 8252), through oauth4webapi — this file never builds a challenge or parses a token response
 * itself. Clients come from `[fermix_core.oauth.<provider>]` (the secret in the secret store), tokens
 * live in the secret store per plugin, refresh happens lazily within 10 s of expiry (one refresh in
 * flight per plugin, shared by concurrent calls), and every request goes through Net.Guard.
 */
import type * as OAuth from 'oauth4webapi';
import { loadConfig, updateConfig } from '../../config/config-file.js';
import { FermixError, isFermixError } from '../../core/errors.js';
import type { ManifestAuth } from '../manifest.js';
import type { HttpRailNet } from '../rails/http/interpreter.js';
import { clientRejected, needsClient, needsReconnection, notConnected, oauthFailed } from './errors.js';
import { netGuardFetch } from './guarded-fetch.js';
import { listenForRedirect, type LoopbackListener } from './loopback.js';
import { isOAuthProvider, OAUTH_PROVIDERS, REJECTED_CLIENT_ERRORS, type OAuthProviderName } from './providers.js';
import { clientSecretItem, isStale, needsRefresh, readTokens, tokenItem, writeTokens, type StoredTokens, type TokenSecrets } from './token-store.js';

type OAuthAuth = Extract<ManifestAuth, { type: 'oauth2' }>;

export interface OAuthManagerDeps {
  configFile: string;
  secrets: TokenSecrets;
  net: HttpRailNet;
  /** Called after tokens are stored, replaced, invalidated or deleted (the supervisor re-derives readiness). */
  onTokensChanged?: () => void;
}

interface ClientConfig {
  provider: OAuthProviderName;
  client_id: string;
  client_secret: string;
  redirect_host: string;
  redirect_port: number | undefined;
}

interface PendingLogin {
  url: string;
  redirectUri: string;
  listener: LoopbackListener;
  done: Promise<StoredTokens>;
}

export const DEFAULT_LOGIN_TIMEOUT_MS = 300_000;

type OAuthLib = typeof OAuth;
let library: Promise<OAuthLib> | undefined;
/** oauth4webapi loads with the first sign-in, refresh or logout, not at daemon start-up (decision 0027). */
function loadOAuth(): Promise<OAuthLib> {
  library ??= import('oauth4webapi');
  return library;
}

function rawClient(configFile: string, provider: string): Record<string, unknown> | undefined {
  return (loadConfig(configFile).config.fermix_core.oauth as Record<string, Record<string, unknown>>)[provider];
}

export function createOAuthManager(deps: OAuthManagerDeps) {
  const fetchOptions = (oauth: OAuthLib) => ({ [oauth.customFetch]: netGuardFetch(deps.net) as unknown as typeof fetch });
  const pending = new Map<string, PendingLogin>();
  const refreshing = new Map<string, Promise<StoredTokens>>();
  const changed = () => deps.onTokensChanged?.();

  function clientOf(provider: OAuthProviderName): ClientConfig | null {
    const raw = rawClient(deps.configFile, provider);
    const id = typeof raw?.client_id === 'string' ? raw.client_id.trim() : '';
    const ref = typeof raw?.client_secret_ref === 'string' && raw.client_secret_ref.startsWith('keychain:') ? raw.client_secret_ref.slice('keychain:'.length) : null;
    const secret = ref ? deps.secrets.get(ref) : null;
    if (id === '' || !secret) return null;
    return { provider, client_id: id, client_secret: secret, redirect_host: typeof raw?.redirect_host === 'string' ? raw.redirect_host : '127.0.0.1', redirect_port: typeof raw?.redirect_port === 'number' ? raw.redirect_port : undefined };
  }

  const clientAuth = (oauth: OAuthLib, config: ClientConfig) => (OAUTH_PROVIDERS[config.provider].client_auth === 'client_secret_basic' ? oauth.ClientSecretBasic(config.client_secret) : oauth.ClientSecretPost(config.client_secret));

  /** One place that turns oauth4webapi's errors into the reference's classes. */
  async function classify(error: unknown, provider: OAuthProviderName, plugin: string, phase: 'login' | 'refresh'): Promise<FermixError> {
    if (isFermixError(error)) return error;
    const oauth = await loadOAuth();
    let code: string | undefined;
    let status: number | undefined;
    if (error instanceof oauth.ResponseBodyError) {
      code = error.error;
      status = error.status;
    } else if (error instanceof oauth.AuthorizationResponseError) {
      code = error.error;
    } else if (error instanceof oauth.WWWAuthenticateChallengeError) {
      status = error.status;
      code = error.cause.find((challenge) => typeof challenge.parameters.error === 'string')?.parameters.error;
      if (code === undefined) {
        try {
          code = ((await error.response.clone().json()) as { error?: string }).error;
        } catch {
          code = undefined;
        }
      }
    }
    // A 401 from the token endpoint is invalid_client by definition (RFC 6749 §5.2).
    if ((code !== undefined && REJECTED_CLIENT_ERRORS.has(code)) || (code === undefined && status === 401)) return clientRejected(provider, code ?? 'invalid_client');
    if (code === 'invalid_grant') return phase === 'refresh' ? needsReconnection(plugin, code) : oauthFailed(provider, 'the authorization code was refused (invalid_grant)');
    if (code === 'access_denied') return new FermixError({ code: 'oauth_denied', message: `The ${OAUTH_PROVIDERS[provider].display_name} sign-in was declined in the browser.`, hint: `Run \`fermix plugins auth login ${plugin}\` and approve the access.`, data: { plugin } });
    return oauthFailed(provider, code ?? (error as Error)?.message ?? String(error));
  }

  /**
   * The connected account's name from the provider's profile call (GitHub `GET /user` login, Notion
   * `users/me` bot owner, Google OIDC userinfo email, X `users/me` username). Best effort: a sign-in
   * never fails because this call did.
   */
  async function fetchAccount(provider: OAuthProviderName, accessToken: string): Promise<string | null> {
    const profile = OAUTH_PROVIDERS[provider].account;
    if (!profile) return null;
    try {
      const response = await netGuardFetch(deps.net)(profile.url, { method: 'GET', headers: { accept: 'application/json', ...(profile.headers ?? {}), authorization: `Bearer ${accessToken}` } });
      if (response.status !== 200) return null;
      const body = (await response.json()) as unknown;
      for (const path of profile.paths) {
        const value = path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), body);
        if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 200);
      }
      return null;
    } catch {
      return null;
    }
  }

  function toStored(result: OAuth.TokenEndpointResponse, provider: string, previous: StoredTokens | null): StoredTokens {
    const now = Date.now();
    return {
      access_token: result.access_token,
      // Rotation: a new refresh token replaces the old; without one the old stays valid (RFC 6749 §6).
      refresh_token: result.refresh_token ?? previous?.refresh_token ?? null,
      token_type: result.token_type,
      expires_at: typeof result.expires_in === 'number' ? now + result.expires_in * 1000 : null,
      scope: result.scope ?? previous?.scope ?? null,
      provider,
      obtained_at: now,
      invalidated: false,
      account: previous?.account ?? null,
    };
  }

  function requireClient(plugin: string, auth: OAuthAuth): ClientConfig {
    const client = clientOf(auth.provider);
    if (!client) throw needsClient(plugin, auth.provider);
    return client;
  }

  async function startLogin(plugin: string, auth: OAuthAuth, options: { port?: number; timeoutMs?: number } = {}) {
    const client = requireClient(plugin, auth);
    const spec = OAUTH_PROVIDERS[auth.provider];
    pending.get(plugin)?.listener.close();
    pending.delete(plugin);
    const oauth = await loadOAuth();
    const state = oauth.generateRandomState();
    const verifier = oauth.generateRandomCodeVerifier();
    const challenge = await oauth.calculatePKCECodeChallenge(verifier);
    const listener = await listenForRedirect({ host: client.redirect_host, port: options.port ?? client.redirect_port, timeoutMs: options.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS, state });
    const url = new URL(spec.server.authorization_endpoint!);
    const params: Record<string, string> = {
      response_type: 'code', client_id: client.client_id, redirect_uri: listener.redirectUri, state,
      code_challenge: challenge, code_challenge_method: 'S256', ...(spec.extra_params ?? {}),
    };
    if (auth.scopes.length > 0) params.scope = auth.scopes.join(spec.scope_separator ?? ' ');
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    const done = (async () => {
      const { params: callback, respond } = await listener.callback;
      try {
        const as = spec.server;
        const checked = oauth.validateAuthResponse(as, { client_id: client.client_id }, callback, state);
        const response = await oauth.authorizationCodeGrantRequest(as, { client_id: client.client_id }, clientAuth(oauth, client), checked, listener.redirectUri, verifier, fetchOptions(oauth));
        const result = await oauth.processAuthorizationCodeResponse(as, { client_id: client.client_id }, response);
        const stored = { ...toStored(result, auth.provider, null), account: await fetchAccount(auth.provider, result.access_token) };
        writeTokens(deps.secrets, plugin, stored);
        respond(true, `Fermix is connected to ${spec.display_name} for the ${plugin} plugin.`);
        changed();
        return stored;
      } catch (error) {
        const classified = await classify(error, auth.provider, plugin, 'login');
        respond(false, `${classified.message} ${classified.hint ?? ''}`);
        throw classified;
      } finally {
        pending.delete(plugin);
      }
    })();
    done.catch(() => undefined);
    pending.set(plugin, { url: url.href, redirectUri: listener.redirectUri, listener, done });
    return { name: plugin, url: url.href, redirect_uri: listener.redirectUri };
  }

  async function waitLogin(plugin: string, timeoutMs: number) {
    const login = pending.get(plugin);
    if (!login) {
      const tokens = readTokens(deps.secrets, plugin);
      if (tokens && !tokens.invalidated) return { name: plugin, connected: true };
      throw new FermixError({ code: 'no_login_pending', message: `No ${plugin} sign-in is waiting for the browser.`, hint: `Start one with \`fermix plugins auth login ${plugin}\`.`, data: { plugin } });
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new FermixError({ code: 'oauth_timeout', message: `The ${plugin} sign-in did not finish within ${Math.round(timeoutMs / 1000)} s.`, hint: `Finish it in the browser, or run \`fermix plugins auth login ${plugin}\` again.` })), timeoutMs); });
    try {
      await Promise.race([login.done, timeout]);
      return { name: plugin, connected: true };
    } finally {
      clearTimeout(timer);
    }
  }

  function invalidate(plugin: string): void {
    const tokens = readTokens(deps.secrets, plugin);
    if (tokens && !tokens.invalidated) {
      writeTokens(deps.secrets, plugin, { ...tokens, invalidated: true });
      changed();
    }
  }

  function refresh(plugin: string, auth: OAuthAuth): Promise<StoredTokens> {
    const running = refreshing.get(plugin);
    if (running) return running;
    const work = (async () => {
      const tokens = readTokens(deps.secrets, plugin);
      if (!tokens) throw notConnected(plugin);
      if (tokens.invalidated) throw needsReconnection(plugin);
      if (!tokens.refresh_token) {
        invalidate(plugin);
        throw needsReconnection(plugin, 'no refresh token');
      }
      const client = requireClient(plugin, auth);
      const as = OAUTH_PROVIDERS[auth.provider].server;
      const oauth = await loadOAuth();
      try {
        const response = await oauth.refreshTokenGrantRequest(as, { client_id: client.client_id }, clientAuth(oauth, client), tokens.refresh_token, fetchOptions(oauth));
        const next = toStored(await oauth.processRefreshTokenResponse(as, { client_id: client.client_id }, response), auth.provider, tokens);
        // Sign-ins stored before the account was recorded learn it on their next refresh.
        if (!next.account) next.account = await fetchAccount(auth.provider, next.access_token);
        writeTokens(deps.secrets, plugin, next);
        return next;
      } catch (error) {
        const classified = await classify(error, auth.provider, plugin, 'refresh');
        // A refused refresh token means the sign-in is gone; a refused client leaves it for after the client is fixed.
        if (classified.code === 'reauthorization_required') invalidate(plugin);
        throw classified;
      }
    })().finally(() => refreshing.delete(plugin));
    refreshing.set(plugin, work);
    return work;
  }

  return {
    clientConfigured: (provider: string) => isOAuthProvider(provider) && clientOf(provider) !== null,
    configuredProviders: () => (Object.keys(OAUTH_PROVIDERS) as OAuthProviderName[]).filter((provider) => clientOf(provider) !== null),
    setClient(provider: string, input: { client_id: string; client_secret: string; redirect_host?: string; redirect_port?: number }) {
      if (!isOAuthProvider(provider)) throw new FermixError({ code: 'unknown_oauth_provider', message: `${provider} is not an OAuth provider Fermix knows (${Object.keys(OAUTH_PROVIDERS).join(', ')}).`, hint: 'Run `fermix plugins catalog` to see which provider each plugin uses.' });
      if (input.client_id.trim() === '' || input.client_secret.trim() === '') throw new FermixError({ code: 'invalid_oauth_client', message: 'An OAuth client needs both a client id and a client secret.', hint: `Run \`fermix plugins auth client ${provider} --client-id ID\` and type the secret.` });
      const item = clientSecretItem(provider);
      deps.secrets.set(item, input.client_secret.trim());
      updateConfig(deps.configFile, (raw) => {
        const core = (raw.fermix_core ??= {}) as Record<string, unknown>;
        const table = (core.oauth ??= {}) as Record<string, Record<string, unknown>>;
        table[provider] = { ...(table[provider] ?? {}), client_id: input.client_id.trim(), client_secret_ref: `keychain:${item}` };
        if (input.redirect_host !== undefined) table[provider].redirect_host = input.redirect_host;
        if (input.redirect_port !== undefined) table[provider].redirect_port = input.redirect_port;
      });
      changed();
      return { provider, configured: true };
    },
    startLogin,
    waitLogin,
    cancelLogin(plugin: string) {
      pending.get(plugin)?.listener.close();
      pending.delete(plugin);
    },
    refresh,
    invalidate,
    /** The access token for a call: refreshed first when within 10 s of expiry. */
    async credential(plugin: string, auth: OAuthAuth): Promise<string> {
      const tokens = readTokens(deps.secrets, plugin);
      if (!tokens) throw notConnected(plugin);
      if (tokens.invalidated) throw needsReconnection(plugin);
      if (!needsRefresh(tokens)) return tokens.access_token;
      return (await refresh(plugin, auth)).access_token;
    },
    /** Deletes the stored tokens (the secret-store item first); revokes upstream where the provider has an endpoint. */
    async logout(plugin: string, auth: OAuthAuth) {
      const tokens = readTokens(deps.secrets, plugin);
      const deleted = deps.secrets.clear(tokenItem(plugin));
      let revoked = false;
      const client = clientOf(auth.provider);
      const as = OAUTH_PROVIDERS[auth.provider].server;
      if (tokens && client && as.revocation_endpoint) {
        try {
          const oauth = await loadOAuth();
          const response = await oauth.revocationRequest(as, { client_id: client.client_id }, clientAuth(oauth, client), tokens.refresh_token ?? tokens.access_token, fetchOptions(oauth));
          await oauth.processRevocationResponse(response);
          revoked = true;
        } catch {
          // The local sign-in is gone either way; the result says nothing was revoked upstream.
          revoked = false;
        }
      }
      changed();
      return { name: plugin, deleted, revoked_upstream: revoked };
    },
    facts(plugin: string) {
      const tokens = readTokens(deps.secrets, plugin);
      return { connected: tokens !== null, invalidated: tokens?.invalidated ?? false, stale: tokens !== null && isStale(tokens), expires_at: tokens?.expires_at ?? null, account: tokens?.account ?? null };
    },
    close() {
      for (const login of pending.values()) login.listener.close();
      pending.clear();
    },
  };
}
export type OAuthManager = ReturnType<typeof createOAuthManager>;
