/**
 * The OAuth 2.0 authorization servers of the providers plugins sign in with (reference §2.16:
 * google, github, notion, x, slack, tesla). Endpoints are code, not config: a config key that could
 * point a sign-in at another host would hand it the client secret. Tests reach a local server by the
 * same host names, through the loopback policy the test composition root injects (decision 0021).
 */
import type { AuthorizationServer } from 'oauth4webapi';

export type OAuthProviderName = 'google' | 'github' | 'notion' | 'x' | 'slack' | 'tesla';

export interface OAuthProviderSpec {
  name: OAuthProviderName;
  display_name: string;
  server: AuthorizationServer;
  /** How the client authenticates at the token endpoint. */
  client_auth: 'client_secret_post' | 'client_secret_basic';
  /** Extra authorization-request parameters (Google needs offline access to return a refresh token). */
  extra_params?: Record<string, string>;
  /** Joins scopes with a space (RFC 6749) unless the provider wants another separator. */
  scope_separator?: string;
  /**
   * The profile call that names the connected account ("Connected as …"): GET with the new access
   * token; the first of `paths` that holds a non-empty string is the name.
   */
  account?: { url: string; headers?: Record<string, string>; paths: string[][] };
}

const spec = (value: OAuthProviderSpec) => value;

export const OAUTH_PROVIDERS: Record<OAuthProviderName, OAuthProviderSpec> = {
  github: spec({
    name: 'github', display_name: 'GitHub', client_auth: 'client_secret_post',
    account: { url: 'https://api.github.com/user', headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' }, paths: [['login']] },
    server: { issuer: 'https://github.com', authorization_endpoint: 'https://github.com/login/oauth/authorize', token_endpoint: 'https://github.com/login/oauth/access_token' },
  }),
  google: spec({
    name: 'google', display_name: 'Google', client_auth: 'client_secret_post', extra_params: { access_type: 'offline', prompt: 'consent' },
    // The OIDC userinfo endpoint (accounts.google.com's discovery document names it): the trio asks for
    // `openid email profile`, so the email is there; `name` only if a grant left email out.
    account: { url: 'https://openidconnect.googleapis.com/v1/userinfo', paths: [['email'], ['name']] },
    server: { issuer: 'https://accounts.google.com', authorization_endpoint: 'https://accounts.google.com/o/oauth2/v2/auth', token_endpoint: 'https://oauth2.googleapis.com/token', revocation_endpoint: 'https://oauth2.googleapis.com/revoke' },
  }),
  notion: spec({
    name: 'notion', display_name: 'Notion', client_auth: 'client_secret_basic', extra_params: { owner: 'user' },
    // A public integration's bot user: its owner is the person who connected it; the bot's own name otherwise.
    account: { url: 'https://api.notion.com/v1/users/me', headers: { 'Notion-Version': '2026-03-11' }, paths: [['bot', 'owner', 'user', 'name'], ['bot', 'owner', 'user', 'person', 'email'], ['name']] },
    server: { issuer: 'https://api.notion.com', authorization_endpoint: 'https://api.notion.com/v1/oauth/authorize', token_endpoint: 'https://api.notion.com/v1/oauth/token' },
  }),
  x: spec({
    name: 'x', display_name: 'X', client_auth: 'client_secret_basic',
    // GET /2/users/me (users.read, which the X manifest asks for): the handle, `data.username`.
    account: { url: 'https://api.x.com/2/users/me', paths: [['data', 'username']] },
    server: { issuer: 'https://x.com', authorization_endpoint: 'https://x.com/i/oauth2/authorize', token_endpoint: 'https://api.x.com/2/oauth2/token', revocation_endpoint: 'https://api.x.com/2/oauth2/revoke' },
  }),
  slack: spec({
    name: 'slack', display_name: 'Slack', client_auth: 'client_secret_post', scope_separator: ',',
    server: { issuer: 'https://slack.com', authorization_endpoint: 'https://slack.com/oauth/v2/authorize', token_endpoint: 'https://slack.com/api/oauth.v2.access' },
  }),
  // Tesla's regional endpoints (na|eu, `region` with no default) are not wired yet: North America only.
  tesla: spec({
    name: 'tesla', display_name: 'Tesla', client_auth: 'client_secret_post',
    server: { issuer: 'https://auth.tesla.com/oauth2/v3', authorization_endpoint: 'https://auth.tesla.com/oauth2/v3/authorize', token_endpoint: 'https://fleet-auth.prd.vn.cloud.tesla.com/oauth2/v3/token' },
  }),
};

export const isOAuthProvider = (name: string): name is OAuthProviderName => Object.hasOwn(OAUTH_PROVIDERS, name);

/**
 * Token-endpoint error codes that mean the client (id/secret) is wrong, not the user's sign-in
 * (reference §2.16): the fix is updating the client, and signing in again would fail the same way.
 */
export const REJECTED_CLIENT_ERRORS = new Set(['invalid_client', 'unauthorized_client', 'incorrect_client_credentials', 'invalid_client_id', 'bad_client_secret', 'invalid_client_secret']);
