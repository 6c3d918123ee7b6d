import { z } from 'zod';
import type { ExecutionContext, Executor, ToolResult } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';
import { netDepsFrom } from './web-fetch.js';
import { BACKENDS, configFrom, runSearch, type SearchOutcome, type SecretResolver, type WarnLogger } from './web-search/run-search.js';

export type { SecretResolver, WarnLogger, WebSearchConfig } from './web-search/run-search.js';

export const MAX_QUERY_CHARS = 1024;

export const webSearchInput = lazySchema(() =>
  z.object({
    query: z.string().min(1).max(MAX_QUERY_CHARS).describe('What to search for, at most 1024 characters.'),
  }),
);

/** Characters as a person (and ajv's maxLength) counts them: code points, so an emoji is one. */
function queryFrom(args: Record<string, unknown>): string {
  const raw = args.query;
  const query = typeof raw === 'string' ? raw.trim() : '';
  if (query === '') {
    throw new FermixError({
      code: 'invalid_query',
      message: 'web_search needs a non-empty `query` string.',
      hint: 'Call web_search again with {"query": "<what to look for>"}.',
    });
  }
  const length = [...query].length;
  if (length > MAX_QUERY_CHARS) {
    throw new FermixError({
      code: 'query_too_long',
      message: `The query is ${length} characters long; web_search takes at most ${MAX_QUERY_CHARS}.`,
      hint: 'Shorten the query to its key terms (at most 1024 characters) and search again.',
      data: { length, max: MAX_QUERY_CHARS },
    });
  }
  return query;
}

/** The result text: a loud warning line first when degraded, then numbered results. */
export function formatSearchResult(query: string, outcome: SearchOutcome): ToolResult {
  const label = BACKENDS[outcome.backend].label;
  const lines: string[] = [];
  if (outcome.degraded) {
    lines.push(`⚠ Warning: ${BACKENDS[outcome.primary_backend].label} failed (${outcome.fallback_reason}: ${outcome.fallback_message}) ` +
      'These results come from DuckDuckGo instead.', '');
  }
  if (outcome.hits.length === 0) {
    lines.push(`No results for "${query}" from ${label}.`);
  } else {
    lines.push(`Results for "${query}" from ${label} (${outcome.hits.length}):`);
    outcome.hits.forEach((hit, index) => {
      lines.push('', `${index + 1}. ${hit.title}`, `   ${hit.url}`);
      if (hit.snippet !== '') lines.push(`   ${hit.snippet}`);
    });
  }
  // The query stays out of data: audit_behavior is redact_args because queries reveal what the owner looks into.
  const data = outcome.degraded
    ? {
        backend: outcome.backend,
        result_count: outcome.hits.length,
        results: outcome.hits,
        degraded: true,
        primary_backend: outcome.primary_backend,
        fallback_reason: outcome.fallback_reason,
        fallback_message: outcome.fallback_message,
      }
    : { backend: outcome.backend, result_count: outcome.hits.length, results: outcome.hits, degraded: false };
  // The audit keeps the degrade facts (issue 5: `degraded`, `primary_backend`, `fallback_reason`).
  const audit: Record<string, string | boolean> = outcome.degraded
    ? { backend: outcome.backend, degraded: true, primary_backend: outcome.primary_backend, fallback_reason: outcome.fallback_reason }
    : { backend: outcome.backend, degraded: false };
  return { text: lines.join('\n'), data, audit };
}

const executeWebSearch: Executor = async (args, context: ExecutionContext) => {
  const query = queryFrom(args);
  const services = context.services ?? {};
  const outcome = await runSearch(query, {
    config: configFrom(services.webSearch),
    secrets: typeof (services.secrets as SecretResolver | undefined)?.get === 'function' ? (services.secrets as SecretResolver) : undefined,
    net: netDepsFrom(context),
    logger: typeof (services.logger as WarnLogger | undefined)?.warn === 'function' ? (services.logger as WarnLogger) : undefined,
  });
  return formatSearchResult(query, outcome);
};

export const webSearch = defineBuiltin({
  name: 'web_search',
  description:
    'Search the web with the configured backend (DuckDuckGo by default; Brave, Exa, Tavily, Parallel, Perplexity or Firecrawl when set up) and return up to 10 results. A hard error on a configured backend degrades once to DuckDuckGo, loudly.',
  policy_class: 'network',
  category: 'web',
  input: webSearchInput,
  when_to_use: 'Find current public information when no known URL is at hand.',
  examples: [
    { args: { query: 'Node.js 20 end of life date' }, note: 'search the public web' },
  ],
  failure_modes: [
    { tag: 'invalid_query', description: 'query is missing, not a string, or blank' },
    { tag: 'query_too_long', description: 'query exceeds 1024 characters' },
    { tag: 'auth_failed', description: 'the configured backend key is missing or rejected (401/403); never degrades' },
    { tag: 'rate_limited', description: 'the search provider returned a challenge or rate limit (429)' },
    { tag: 'provider_error', description: 'the search provider returned an unexpected HTTP error (402/out of credits included)' },
    { tag: 'parser_changed', description: 'the provider page or response no longer has the expected shape' },
    { tag: 'network', description: 'the provider could not be reached (DNS, connection, TLS, timeout)' },
  ],
  scope_requirements: ['net:outbound'],
  // Queries reveal what the owner is looking into; the audit keeps them scrubbed.
  audit_behavior: 'redact_args',
  executor: executeWebSearch,
});
