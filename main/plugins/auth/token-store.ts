/**
 * OAuth tokens and client secrets in the secret store (main/secrets/secret-store.ts): one item per
 * plugin, `plugin_<name>_OAUTH`, holding the token set as JSON; client secrets as
 * `oauth_client_<provider>_SECRET`, referenced from `[fermix_core.oauth.<provider>] client_secret_ref`.
 * Nothing token-shaped is ever written to config.toml.
 */
import type { Keychain } from '../../secrets/keychain.js';

export const REFRESH_SKEW_MS = 10_000;
export const STALE_AFTER_MS = 3_600_000;

export interface StoredTokens {
  access_token: string;
  refresh_token: string | null;
  token_type: string;
  /** Epoch ms; null when the provider gave no expiry (GitHub OAuth apps' tokens do not expire). */
  expires_at: number | null;
  scope: string | null;
  provider: string;
  obtained_at: number;
  /** Set when the provider refused the refresh token or the token itself: reauthorization_required. */
  invalidated: boolean;
  /** Who signed in (GitHub login, Notion user, Google email, X handle), from the provider's profile call; null when there is none. */
  account?: string | null;
}

export const tokenItem = (plugin: string) => `plugin_${plugin}_OAUTH`;
export const clientSecretItem = (provider: string) => `oauth_client_${provider}_SECRET`;

export type TokenSecrets = Pick<Keychain, 'get' | 'set' | 'clear' | 'has'>;

export function readTokens(secrets: Pick<Keychain, 'get'>, plugin: string): StoredTokens | null {
  const raw = secrets.get(tokenItem(plugin));
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as StoredTokens;
    return typeof parsed.access_token === 'string' ? parsed : null;
  } catch {
    // An unreadable item is treated as no sign-in: `auth login` replaces it.
    return null;
  }
}

export function writeTokens(secrets: Pick<Keychain, 'set'>, plugin: string, tokens: StoredTokens): void {
  secrets.set(tokenItem(plugin), JSON.stringify(tokens));
}

/** Within the refresh skew of expiry (or past it): refresh before using it. */
export const needsRefresh = (tokens: StoredTokens, now = Date.now()) => tokens.expires_at !== null && tokens.expires_at - REFRESH_SKEW_MS <= now;

/**
 * More than an hour past expiry: in-use tokens refresh lazily before that, so only an idle sign-in
 * gets here (reference §2.16) — doctor's `auth tokens` row and the Reconnect needed badge show it.
 */
export const isStale = (tokens: StoredTokens, now = Date.now()) => tokens.expires_at !== null && now - tokens.expires_at > STALE_AFTER_MS;
