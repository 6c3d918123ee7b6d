import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const webSearchInput = z.object({
  query: z.string().min(1).max(1024).describe('What to search for, at most 1024 characters.'),
});

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
    { tag: 'query_too_long', description: 'query exceeds 1024 characters' },
    { tag: 'auth_failed', description: 'the configured backend key is missing or invalid' },
    { tag: 'rate_limited', description: 'the search provider returned a challenge or rate limit' },
    { tag: 'provider_error', description: 'the search provider returned an unexpected HTTP error (402/out of credits included)' },
    { tag: 'parser_changed', description: 'result selectors no longer match the provider page' },
    { tag: 'network', description: 'transport or HTTP failure' },
  ],
  scope_requirements: ['net:outbound'],
  // Queries reveal what the owner is looking into; the audit keeps them scrubbed.
  audit_behavior: 'redact_args',
});
