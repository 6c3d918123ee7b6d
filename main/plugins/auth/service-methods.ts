/**
 * The plugin service's OAuth operations (plugins.oauth_* methods and `fermix plugins auth
 * login|reauthorize|refresh|logout|client`): each checks that NAME signs in with OAuth, then hands
 * over to the OAuth manager. Kept apart from service.ts so the api_key half stays as it was.
 */
import { FermixError } from '../../core/errors.js';
import type { ManifestAuth, PluginManifest } from '../manifest.js';
import type { OAuthManager } from './oauth-manager.js';

type OAuthAuth = Extract<ManifestAuth, { type: 'oauth2' }>;

export interface OAuthServiceDeps {
  oauth: OAuthManager;
  installedManifest: (name: string) => PluginManifest;
  /** Re-derives readiness and answers NAME's status. */
  state: (name: string) => string;
}

export function oauthServiceMethods(deps: OAuthServiceDeps) {
  const oauthAuth = (name: string): OAuthAuth => {
    const manifest = deps.installedManifest(name);
    if (manifest.auth.type !== 'oauth2') {
      throw new FermixError({ code: 'wrong_auth_type', message: `${name} does not sign in with OAuth (its auth is ${manifest.auth.type}).`, hint: manifest.auth.type === 'api_key' ? `Set its key with \`fermix plugins auth set ${name}\`.` : `${name} needs no sign-in.`, data: { plugin: name } });
    }
    return manifest.auth;
  };
  return {
    setOAuthClient(provider: string, input: { client_id: string; client_secret: string; redirect_host?: string; redirect_port?: number }) {
      return deps.oauth.setClient(provider, input);
    },
    /** Starts a sign-in: the URL to open; the loopback redirect completes it (plugins.oauth_login.wait waits for that). */
    async oauthLoginStart(name: string, options: { port?: number; timeout_ms?: number } = {}) {
      const auth = oauthAuth(name);
      return { ...(await deps.oauth.startLogin(name, auth, { port: options.port, timeoutMs: options.timeout_ms })), provider: auth.provider };
    },
    async oauthLoginWait(name: string, timeoutMs: number) {
      const result = await deps.oauth.waitLogin(name, timeoutMs);
      return { ...result, status: deps.state(name) };
    },
    async oauthRefresh(name: string) {
      const tokens = await deps.oauth.refresh(name, oauthAuth(name));
      return { name, refreshed: true, expires_at: tokens.expires_at === null ? null : new Date(tokens.expires_at).toISOString(), status: deps.state(name) };
    },
    async oauthLogout(name: string) {
      const auth = oauthAuth(name);
      deps.oauth.cancelLogin(name);
      const result = await deps.oauth.logout(name, auth);
      return { ...result, status: deps.state(name) };
    },
  };
}
