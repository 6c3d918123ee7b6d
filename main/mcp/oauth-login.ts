/**
 * The interactive OAuth sign-in of an operator Streamable HTTP server (`fermix mcp auth login NAME`,
 * the window's Sign in, `mcp.auth_login.*`). The SDK's client auth does the protocol — discovery,
 * dynamic client registration, PKCE, the authorization URL, and the code exchange in the transport's
 * `finishAuth` — while this file adds what a desktop needs around it: the plugin flow's loopback
 * listener (RFC 8252, one callback with the expected state), the tokens in the secret store
 * (oauth.ts), and a fresh start of the server once they are there, so its tools register.
 * Logout deletes the stored sign-in (revoking it upstream where the server has an endpoint) and
 * restarts the server, which then waits in `needs_auth`.
 */
import { randomBytes } from 'node:crypto';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { FermixError, isFermixError } from '../core/errors.js';
import { listenForRedirect, type LoopbackListener } from '../plugins/auth/loopback.js';
import { cappedFetch, REMOTE_RESPONSE_CAP, type SecretReader, type TransportOpener } from './launch.js';
import { createSecretStoreOAuthProvider, OAUTH_ITEMS, oauthSecretName, readOAuthItem, hasStoredTokens, type LoginHooks } from './oauth.js';
import type { McpSupervisor, ServerState } from './supervisor.js';

export const DEFAULT_MCP_LOGIN_TIMEOUT_MS = 300_000;

export interface McpOAuthDeps {
  supervisor: McpSupervisor;
  secrets: SecretReader;
  openTransport: TransportOpener;
}

interface PendingLogin {
  listener: LoopbackListener;
  done: Promise<void>;
}

const loginCommand = (server: string) => `fermix mcp auth login ${server}`;

function notOAuth(server: string): FermixError {
  return new FermixError({
    code: 'oauth_not_configured',
    message: `The MCP server ${server} does not sign in with OAuth.`,
    hint: `Set \`oauth = true\` under [mcp.servers.${server}] in config.toml (it needs a \`url\`), then run \`${loginCommand(server)}\`.`,
    data: { server },
  });
}

function signInFailed(server: string, detail: string): FermixError {
  return new FermixError({ code: 'oauth_failed', message: `Signing in to the MCP server ${server} failed: ${detail}.`, hint: `Run \`${loginCommand(server)}\` again; \`fermix mcp logs ${server}\` has the server's side.`, data: { server } });
}

/** The loopback listener's own errors name the plugin verb; the same failure here names ours. */
function rehint(server: string, error: unknown): FermixError {
  if (!isFermixError(error)) return signInFailed(server, error instanceof Error ? error.message : String(error));
  if (error.code === 'oauth_timeout' || error.code === 'oauth_cancelled') return new FermixError({ code: error.code, message: error.message, hint: `Run \`${loginCommand(server)}\` again and finish in the browser.`, data: { server } });
  if (error.code === 'oauth_port_unavailable') return new FermixError({ code: error.code, message: error.message, hint: `Pick another port with \`${loginCommand(server)} --port N\`.`, data: { server } });
  return error;
}

/** What the authorization server sent back instead of a code (RFC 6749 §4.1.2.1). */
function refused(server: string, code: string, description: string | null): FermixError {
  if (code === 'access_denied') {
    return new FermixError({ code: 'oauth_denied', message: `The sign-in to the MCP server ${server} was declined in the browser.`, hint: `Run \`${loginCommand(server)}\` and approve the access.`, data: { server, provider_error: code } });
  }
  return signInFailed(server, `the authorization server answered ${code}${description ? ` (${description.slice(0, 200)})` : ''}`);
}

function portOf(redirectUri: string | undefined): number | undefined {
  if (!redirectUri) return undefined;
  try {
    const url = new URL(redirectUri);
    return url.hostname === '127.0.0.1' && url.pathname === '/callback' && url.port !== '' ? Number(url.port) : undefined;
  } catch {
    return undefined;
  }
}

export function createMcpOAuth(deps: McpOAuthDeps) {
  const pending = new Map<string, PendingLogin>();
  const fetchFn = cappedFetch(REMOTE_RESPONSE_CAP);

  function oauthConfig(server: string) {
    const config = deps.supervisor.config(server);
    if (!config) return undefined;
    if (config.url === undefined || !config.oauth) throw notOAuth(server);
    return config;
  }

  /** The client registered at the last sign-in named a port; reusing it spares a new registration. */
  async function listen(server: string, state: string, port: number | undefined, timeoutMs: number): Promise<LoopbackListener> {
    const preferred = port ?? portOf(readOAuthItem<{ redirect_uris?: string[] }>(deps.secrets, server, 'CLIENT')?.redirect_uris?.[0]);
    try {
      return await listenForRedirect({ port: preferred, timeoutMs, state });
    } catch (error) {
      if (port === undefined && preferred !== undefined) return listenForRedirect({ port: 0, timeoutMs, state });
      throw rehint(server, error);
    }
  }

  async function start(server: string, options: { port?: number; timeoutMs?: number } = {}) {
    const config = oauthConfig(server);
    if (!config) return undefined;
    cancel(server);
    const state = randomBytes(16).toString('base64url');
    const listener = await listen(server, state, options.port, options.timeoutMs ?? DEFAULT_MCP_LOGIN_TIMEOUT_MS);
    let authorizationUrl: URL | undefined;
    const hooks: LoginHooks = { redirectUrl: listener.redirectUri, state, onAuthorizationUrl: (url) => (authorizationUrl = url) };
    let transport: StreamableHTTPClientTransport;
    try {
      transport = (await deps.openTransport(server, config, hooks)) as StreamableHTTPClientTransport;
      // Loaded with the first sign-in, not at daemon start-up.
      const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
      // Discovery, registration (when needed) and PKCE; the provider hands over the URL instead of throwing.
      const result = await auth(createSecretStoreOAuthProvider(server, deps.secrets, hooks), { serverUrl: new URL(config.url!), fetchFn });
      if (result !== 'REDIRECT' || !authorizationUrl) throw signInFailed(server, 'the server did not ask for an authorization');
    } catch (error) {
      listener.close();
      throw rehint(server, error);
    }
    const done = (async () => {
      const { params, respond } = await listener.callback.catch((error: unknown) => {
        throw rehint(server, error);
      });
      const answered = params.get('error');
      const code = params.get('code');
      try {
        if (answered !== null || code === null) throw refused(server, answered ?? 'no_code', params.get('error_description'));
        // The SDK's own completion: exchanges the code with the stored verifier and saves the tokens.
        await transport.finishAuth(code);
      } catch (error) {
        const failure = rehint(server, error);
        respond(false, `${failure.message} ${failure.hint ?? ''}`);
        throw failure;
      }
      deps.secrets.clear?.(oauthSecretName(server, 'VERIFIER'));
      respond(true, `Fermix is signed in to the MCP server ${server}.`);
      // A fresh attempt now carries the tokens: connect, discover, register its tools.
      deps.supervisor.restart(server);
    })().finally(() => {
      pending.delete(server);
      void transport.close().catch(() => undefined);
    });
    done.catch(() => undefined);
    pending.set(server, { listener, done });
    return { name: server, url: authorizationUrl.href, redirect_uri: listener.redirectUri };
  }

  async function settledState(server: string, timeoutMs: number): Promise<ServerState | undefined> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([deps.supervisor.settled(server), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    return deps.supervisor.get(server);
  }

  async function wait(server: string, timeoutMs: number) {
    const login = pending.get(server);
    if (!login) {
      oauthConfig(server);
      if (!hasStoredTokens(deps.secrets, server)) {
        throw new FermixError({ code: 'no_login_pending', message: `No sign-in to the MCP server ${server} is waiting for the browser.`, hint: `Start one with \`${loginCommand(server)}\`.`, data: { server } });
      }
    } else {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new FermixError({ code: 'oauth_timeout', message: `The sign-in to the MCP server ${server} did not finish within ${Math.round(timeoutMs / 1000)} s.`, hint: `Finish it in the browser, or run \`${loginCommand(server)}\` again.`, data: { server } })), timeoutMs);
      });
      try {
        await Promise.race([login.done, timeout]);
      } finally {
        clearTimeout(timer);
      }
    }
    return { name: server, signed_in: true, state: await settledState(server, timeoutMs) };
  }

  function cancel(server: string): void {
    pending.get(server)?.listener.close();
    pending.delete(server);
  }

  /** RFC 7009 at the endpoint discovery found; best effort — the local sign-in is gone either way. */
  async function revoke(server: string): Promise<boolean> {
    const tokens = readOAuthItem<OAuthTokens>(deps.secrets, server, 'TOKENS');
    const client = readOAuthItem<OAuthClientInformationMixed>(deps.secrets, server, 'CLIENT');
    // RFC 8414 metadata has it; the SDK's OIDC-shaped union type does not name it on every member.
    const metadata = readOAuthItem<OAuthDiscoveryState>(deps.secrets, server, 'DISCOVERY')?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined;
    const endpoint = metadata?.revocation_endpoint;
    if (!tokens || !client || !endpoint) return false;
    const token = tokens.refresh_token ?? tokens.access_token;
    try {
      const response = await fetchFn(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token, token_type_hint: tokens.refresh_token ? 'refresh_token' : 'access_token', client_id: client.client_id }),
        signal: AbortSignal.timeout(10_000),
      });
      return response.ok;
    } catch {
      return false;
    }
  }

  async function logout(server: string) {
    const config = oauthConfig(server);
    if (!config) return undefined;
    cancel(server);
    const revoked = await revoke(server);
    let deleted = false;
    for (const item of OAUTH_ITEMS) deleted = (deps.secrets.clear?.(oauthSecretName(server, item)) ?? false) || deleted;
    deps.supervisor.restart(server);
    return { name: server, deleted, revoked_upstream: revoked, state: await settledState(server, config.timeout_ms) };
  }

  return {
    start,
    wait,
    cancel,
    logout,
    close() {
      for (const login of pending.values()) login.listener.close();
      pending.clear();
    },
  };
}

export type McpOAuth = ReturnType<typeof createMcpOAuth>;
