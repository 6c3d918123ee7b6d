/**
 * web_search's policy (reference §2.14): pick the configured backend, resolve its key, search, and on a
 * provider error, rate limit, network failure or changed response degrade ONCE to DuckDuckGo, loudly.
 * Auth failures (a rejected or missing key) and empty results never degrade: the first needs the owner to
 * fix the key, the second is an answer. When the fall-back fails too, the original backend's error is shown.
 */
import { FermixError, isFermixError } from '../../core/errors.js';
import type { WebFetchDeps } from '../../net/index.js';
import { BACKEND_NAMES, DEGRADABLE_CODES, keyFixHint, type BackendName, type SearchBackend, type SearchHit } from './backend.js';
import { brave } from './brave.js';
import { duckduckgo } from './duckduckgo.js';
import { exa } from './exa.js';
import { firecrawl } from './firecrawl.js';
import { parallel } from './parallel.js';
import { perplexity } from './perplexity.js';
import { tavily } from './tavily.js';

export const BACKENDS: Readonly<Record<BackendName, SearchBackend>> = { duckduckgo, brave, exa, tavily, parallel, perplexity, firecrawl };

/** `context.services.webSearch`: the `[fermix_core.tools.web_search]` config. */
export interface WebSearchConfig {
  /** Default `duckduckgo` (keyless). */
  backend?: BackendName;
  /** Per-backend base URL (scheme://host[:port][/prefix]) replacing the vendor's, e.g. for a proxy or a test fake. */
  baseUrls?: Partial<Record<BackendName, string>>;
}

/** `context.services.secrets`: reads a named secret (the OS keychain in the daemon). Undefined = not set. */
export interface SecretResolver {
  get(name: string): Promise<string | undefined> | string | undefined;
}

/** `context.services.logger` (optional): where the degrade warning is logged. */
export interface WarnLogger {
  warn(msg: string, fields?: Record<string, unknown>): void;
}

export interface SearchOptions {
  config: WebSearchConfig;
  secrets?: SecretResolver;
  net: WebFetchDeps;
  logger?: WarnLogger;
}

export type SearchOutcome =
  | { backend: BackendName; hits: SearchHit[]; degraded: false }
  | {
      backend: 'duckduckgo';
      hits: SearchHit[];
      degraded: true;
      primary_backend: BackendName;
      /** The primary's failure tag: provider_error, rate_limited, network or parser_changed. */
      fallback_reason: string;
      fallback_message: string;
    };

export async function runSearch(query: string, options: SearchOptions): Promise<SearchOutcome> {
  const primary = BACKENDS[options.config.backend ?? 'duckduckgo'];
  const apiKey = await resolveKey(primary, options.secrets);
  try {
    const hits = await callBackend(primary, query, apiKey, options);
    return { backend: primary.name, hits, degraded: false };
  } catch (error) {
    if (primary.name === 'duckduckgo' || !isFermixError(error) || !DEGRADABLE_CODES.has(error.code)) throw error;
    options.logger?.warn('web_search degraded to DuckDuckGo', {
      degraded: true,
      primary_backend: primary.name,
      fallback_reason: error.code,
      error: error.message,
    });
    let hits: SearchHit[];
    try {
      hits = await callBackend(duckduckgo, query, undefined, options);
    } catch (fallbackError) {
      if (isFermixError(fallbackError) && fallbackError.code === 'cancelled') throw fallbackError;
      throw withFallbackFailure(error, fallbackError);
    }
    return {
      backend: 'duckduckgo',
      hits,
      degraded: true,
      primary_backend: primary.name,
      fallback_reason: error.code,
      fallback_message: error.message,
    };
  }
}

function callBackend(backend: SearchBackend, query: string, apiKey: string | undefined, options: SearchOptions): Promise<SearchHit[]> {
  const baseUrl = options.config.baseUrls?.[backend.name] ?? backend.defaultBaseUrl;
  return backend.search({ query, baseUrl, apiKey, net: options.net });
}

/** A missing key is an auth failure (no degrade): the owner chose this backend and must set its key. */
async function resolveKey(backend: SearchBackend, secrets: SecretResolver | undefined): Promise<string | undefined> {
  if (!backend.keyName) return undefined;
  const value = secrets ? await secrets.get(backend.keyName) : undefined;
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  throw new FermixError({
    code: 'auth_failed',
    message: `web_search is set to ${backend.label}, but no ${backend.keyName} is stored.`,
    hint: keyFixHint(backend.keyName),
    data: { backend: backend.name, key_name: backend.keyName, reason: 'missing_key' },
  });
}

/** The original error, with what happened to the fall-back attached for logs and the audit. */
function withFallbackFailure(original: FermixError, fallbackError: unknown): FermixError {
  const fallback = isFermixError(fallbackError) ? { code: fallbackError.code, message: fallbackError.message } : { code: 'internal_error' };
  return new FermixError({
    code: original.code,
    message: `${original.message} The fall-back to DuckDuckGo failed too (${fallback.code}).`,
    hint: original.hint,
    data: { ...(original.data ?? {}), fallback_backend: 'duckduckgo', fallback_error: fallback },
    cause: original,
  });
}

/** Parses `context.services.webSearch`; a wrong backend name is a config fault with its own fix. */
export function configFrom(raw: unknown): WebSearchConfig {
  if (raw === undefined || raw === null) return {};
  const record = typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const config: WebSearchConfig = {};
  const backend = record.backend;
  if (backend !== undefined) {
    if (typeof backend !== 'string' || !(BACKEND_NAMES as readonly string[]).includes(backend)) {
      throw new FermixError({
        code: 'invalid_config',
        message: `web_search backend ${JSON.stringify(backend)} is not one Fermix knows.`,
        hint: `Set \`backend\` under \`[fermix_core.tools.web_search]\` to one of ${BACKEND_NAMES.join(', ')}, then \`fermix config validate\`.`,
        data: { backend, known: [...BACKEND_NAMES] },
      });
    }
    config.backend = backend as BackendName;
  }
  if (record.baseUrls !== null && typeof record.baseUrls === 'object') {
    const baseUrls: Partial<Record<BackendName, string>> = {};
    for (const name of BACKEND_NAMES) {
      const value = (record.baseUrls as Record<string, unknown>)[name];
      if (typeof value === 'string' && value !== '') baseUrls[name] = value;
    }
    config.baseUrls = baseUrls;
  }
  return config;
}
