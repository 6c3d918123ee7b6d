/**
 * OAuth for operator Streamable HTTP servers through the SDK's client auth (`authProvider`): the SDK
 * does discovery, dynamic client registration, PKCE and refresh; this provider only keeps what it must
 * remember in the secret store (never in config.toml): `MCP_OAUTH_<SERVER>_TOKENS`, `..._CLIENT`,
 * `..._VERIFIER`, each a JSON string. The interactive step — sending the person to the authorization
 * page and receiving the redirect — is not wired yet: the attempt fails with `needs_auth` naming the URL.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { FermixError } from '../core/errors.js';
import type { SecretReader } from './launch.js';

/** Loopback redirect the (future) login verb listens on; registered with the server as is. */
export const OAUTH_REDIRECT_URL = 'http://127.0.0.1:4032/mcp/oauth/callback';

export function oauthSecretName(server: string, item: 'TOKENS' | 'CLIENT' | 'VERIFIER'): string {
  return `MCP_OAUTH_${server.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${item}`;
}

export function createSecretStoreOAuthProvider(server: string, secrets: SecretReader): OAuthClientProvider {
  const read = <T>(item: 'TOKENS' | 'CLIENT' | 'VERIFIER'): T | undefined => {
    const raw = secrets.get(oauthSecretName(server, item));
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  };
  const write = (item: 'TOKENS' | 'CLIENT' | 'VERIFIER', value: unknown) => {
    if (!secrets.set) throw new FermixError({ code: 'secret_store_read_only', message: 'The secret store cannot be written from here.', hint: 'Run the daemon with a writable secret store (`fermix doctor` shows it).' });
    secrets.set(oauthSecretName(server, item), JSON.stringify(value));
  };
  return {
    get redirectUrl() {
      return OAUTH_REDIRECT_URL;
    },
    get clientMetadata(): OAuthClientMetadata {
      return { client_name: 'Fermix desktop', redirect_uris: [OAUTH_REDIRECT_URL], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
    },
    clientInformation: () => read<OAuthClientInformationMixed>('CLIENT'),
    saveClientInformation: (info) => write('CLIENT', info),
    tokens: () => read<OAuthTokens>('TOKENS'),
    saveTokens: (tokens) => write('TOKENS', tokens),
    saveCodeVerifier: (verifier) => write('VERIFIER', verifier),
    codeVerifier: () => {
      const verifier = read<string>('VERIFIER');
      if (!verifier) throw new FermixError({ code: 'needs_auth', message: `No OAuth login is in progress for the MCP server ${server}.`, hint: `Authorize it again: \`fermix mcp restart ${server}\` shows the authorization address.` });
      return verifier;
    },
    redirectToAuthorization: (url) => {
      throw new FermixError({
        code: 'needs_auth',
        message: `The MCP server ${server} needs you to authorize Fermix at ${url.origin}.`,
        hint: `Open ${url.href} in a browser; the interactive login verb is not available yet, so store tokens with \`fermix secrets set ${oauthSecretName(server, 'TOKENS')}\` meanwhile.`,
        data: { server, authorization_url: url.href },
      });
    },
  };
}
