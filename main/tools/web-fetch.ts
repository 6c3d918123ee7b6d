import { z } from 'zod';
import { defineBuiltin } from './define-builtin.js';

export const webFetchInput = z.object({
  url: z.string().min(1).describe('Public http(s) URL to fetch. Private, loopback and link-local addresses are refused.'),
});

export const webFetch = defineBuiltin({
  name: 'web_fetch',
  description:
    "Fetch a public URL through Net.Guard, with a 1 MiB body cap and IP pinning. Returns the page's readable text, or the JSON verbatim when the endpoint serves JSON.",
  policy_class: 'network',
  category: 'web',
  input: webFetchInput,
  when_to_use: 'Read one known public page or JSON endpoint; use web_search when you have no URL and browser for JavaScript-heavy pages.',
  examples: [
    { args: { url: 'https://nodejs.org/en/about/previous-releases' }, note: 'read one known page' },
    { args: { url: 'https://api.github.com/repos/nodejs/node/releases/latest' }, note: 'read a JSON API' },
  ],
  failure_modes: [
    { tag: 'blocked_url', description: 'Net.Guard refused the URL or a redirect target (private address, bad scheme, blocked host)' },
    { tag: 'too_large', description: 'response body exceeded 1048576 bytes' },
    { tag: 'redirect_limit', description: 'more than 5 redirects' },
    { tag: 'network', description: 'transport failure or a non-2xx status (network: HTTP <status>)' },
    { tag: 'parse_failed', description: 'the HTML could not be parsed into text' },
  ],
  scope_requirements: ['net:outbound'],
  // URLs carry tokens in query strings; the audit scrubs them.
  audit_behavior: 'redact_args',
});
