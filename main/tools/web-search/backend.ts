/**
 * What every web_search backend shares: the backend contract, the normalized result, and the failure tags
 * of reference §2.14 (auth_failed, rate_limited, provider_error, parser_changed, network).
 */
import { FermixError, type ErrorData } from '../../core/errors.js';
import { decodeEntities } from '../../net/entities.js';
import type { WebFetchDeps } from '../../net/index.js';

export const BACKEND_NAMES = ['duckduckgo', 'brave', 'exa', 'tavily', 'parallel', 'perplexity', 'firecrawl'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

/** At most this many results leave web_search, whatever the provider returns. */
export const MAX_RESULTS = 10;
/** Snippets are a hint for the model, not the page: web_fetch reads the page. */
const MAX_SNIPPET_CHARS = 500;
const MAX_TITLE_CHARS = 300;

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** One backend call: everything it needs, already resolved by the executor. */
export interface BackendCall {
  query: string;
  /** scheme://host[:port][/prefix]; the backend appends its documented path. */
  baseUrl: string;
  /** The resolved key; undefined only for keyless backends. */
  apiKey: string | undefined;
  /** Net.Guard options (policy, lookup, ca, signal, userAgent). */
  net: WebFetchDeps;
}

export interface SearchBackend {
  name: BackendName;
  /** For people: "Brave", "DuckDuckGo". */
  label: string;
  defaultBaseUrl: string;
  /** Secret name in the keychain; absent for keyless backends. */
  keyName?: string;
  search(call: BackendCall): Promise<SearchHit[]>;
}

/** The failure tags a backend can raise. Only auth_failed stops the fall-back to DuckDuckGo. */
export type SearchErrorCode = 'auth_failed' | 'rate_limited' | 'provider_error' | 'parser_changed' | 'network';
export const DEGRADABLE_CODES: ReadonlySet<string> = new Set(['rate_limited', 'provider_error', 'parser_changed', 'network']);

/** The one fix command for a missing or rejected key, used by every backend. */
export function keyFixHint(keyName: string): string {
  return `Run \`fermix secrets set ${keyName}\` to store a valid key (it asks for the value without echo), ` +
    'or set `backend = "duckduckgo"` under `[fermix_core.tools.web_search]` to search without a key.';
}

const DEFAULT_HINTS: Record<Exclude<SearchErrorCode, 'auth_failed'>, string> = {
  rate_limited: 'Wait a minute and search again, or configure another backend under `[fermix_core.tools.web_search]`.',
  provider_error: 'The search provider is failing or out of credits; check the account on the provider\'s dashboard, or try again later.',
  parser_changed: 'The provider changed its response format and this Fermix version cannot read it; update Fermix, or set another `backend` under `[fermix_core.tools.web_search]` meanwhile.',
  network: 'Check that this machine is online (`fermix doctor` checks connectivity) and search again.',
};

export function searchError(
  code: SearchErrorCode,
  backend: SearchBackend,
  message: string,
  data: ErrorData = {},
  cause?: unknown,
): FermixError {
  const hint = code === 'auth_failed' ? keyFixHint(backend.keyName ?? `${backend.name.toUpperCase()}_API_KEY`) : DEFAULT_HINTS[code];
  return new FermixError({ code, message, hint, data: { backend: backend.name, ...data }, cause });
}

/** Raised when the response parses but is not the documented shape. */
export function shapeChanged(backend: SearchBackend, what: string): FermixError {
  return searchError('parser_changed', backend, `${backend.label} answered in an unexpected format (${what}).`, { what });
}

/** Provider text → one plain line: tags dropped, entities decoded, whitespace collapsed. */
export function plainText(value: unknown, max: number = MAX_SNIPPET_CHARS): string {
  if (typeof value !== 'string') return '';
  const text = decodeEntities(value.replace(/<[^>]*>/gu, '')).replace(/[\s\u00a0]+/gu, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** Keeps results with an http(s) URL, cleans their text, drops duplicates, and caps the list at 10. */
export function normalizeHits(raw: Array<{ title?: unknown; url?: unknown; snippet?: unknown }>): SearchHit[] {
  const seen = new Set<string>();
  const hits: SearchHit[] = [];
  for (const item of raw) {
    const url = httpUrl(item.url);
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    hits.push({ title: plainText(item.title, MAX_TITLE_CHARS) || url, url, snippet: plainText(item.snippet) });
    if (hits.length === MAX_RESULTS) break;
  }
  return hits;
}

/**
 * normalizeHits for a backend: a list whose entries all lack a usable URL means the fields were renamed,
 * which is `parser_changed` (degrades), not "no results" (does not).
 */
export function toHits(backend: SearchBackend, raw: Array<{ title?: unknown; url?: unknown; snippet?: unknown }>): SearchHit[] {
  const hits = normalizeHits(raw);
  if (raw.length > 0 && hits.length === 0) throw shapeChanged(backend, 'no result carries an http(s) URL');
  return hits;
}

function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Joins a configured base URL and a documented path without doubling or losing the slash. */
export function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/u, '')}${path}`;
}
