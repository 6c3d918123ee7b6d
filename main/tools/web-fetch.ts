import { z } from 'zod';
import type { ExecutionContext, Executor, ToolResult } from '../core/capabilities/capability.js';
import { FermixError } from '../core/errors.js';
import { webFetch as fetchPage, type HostResolver, type NetPolicy, type WebFetchDeps, type WebFetchResult } from '../net/index.js';
import { defineBuiltin } from './define-builtin.js';
import { lazySchema } from './lazy-schema.js';

export const webFetchInput = lazySchema(() =>
  z.object({
    url: z.string().min(1).describe('Public http(s) URL to fetch. Private, loopback and link-local addresses are refused.'),
  }),
);

/**
 * `context.services.net`, injected by the composition root and shared by web_fetch and web_search.
 * Absent (or any field absent) means Net.Guard's defaults: DEFAULT_NET_POLICY, the system resolver,
 * the system CAs. Only tests pass a policy (createTestPolicy()) and a lookup that maps names to 127.0.0.1.
 */
export interface WebNetServices {
  /** Net.Guard policy; production passes nothing. */
  policy?: NetPolicy;
  /** Host-name resolver; every address it returns is still checked by the guard. */
  lookup?: HostResolver;
  /** Extra trusted CAs (tests); certificates are always verified. */
  ca?: string | Buffer | Array<string | Buffer>;
  /** e.g. `fermix/<version>`. */
  userAgent?: string;
}

/** Net.Guard options from the injected services plus the call's abort signal; unknown or mistyped fields are ignored. */
export function netDepsFrom(context: ExecutionContext): WebFetchDeps {
  const raw = context.services?.net;
  const net = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const deps: WebFetchDeps = { signal: context.signal };
  if (net.policy !== null && typeof net.policy === 'object') deps.policy = net.policy as NetPolicy;
  if (typeof net.lookup === 'function') deps.lookup = net.lookup as HostResolver;
  if (typeof net.ca === 'string' || Buffer.isBuffer(net.ca) || Array.isArray(net.ca)) deps.ca = net.ca as WebNetServices['ca'];
  if (typeof net.userAgent === 'string' && net.userAgent !== '') deps.userAgent = net.userAgent;
  return deps;
}

const CAP_BYTES = '1,048,576';

/** The ToolResult: a short header (URL, status, type, truncation notice), then the readable text. */
export function formatFetchResult(result: WebFetchResult): ToolResult {
  const lines = [`URL: ${result.url}`];
  if (result.final_url !== result.url) lines.push(`Final URL (after redirects): ${result.final_url}`);
  lines.push(`Status: ${result.status}`, `Content-Type: ${result.content_type}`);
  if (result.truncated) {
    lines.push(`[Truncated: the response was larger than ${CAP_BYTES} bytes; only the first ${CAP_BYTES} bytes were read.]`);
  }
  const body = result.text === '' ? '(the response body is empty)' : result.text;
  return {
    text: `${lines.join('\n')}\n\n${body}`,
    // The body stays out of data: it can be a megabyte, and the text already carries it.
    data: {
      url: result.url,
      final_url: result.final_url,
      status: result.status,
      content_type: result.content_type,
      truncated: result.truncated,
      text_chars: result.text.length,
    },
  };
}

/** Errors keep their Net.Guard codes (blocked_url, redirect_limit, network, timeout, …). */
const executeWebFetch: Executor = async (args, context) => {
  const url = args.url;
  if (typeof url !== 'string' || url === '') {
    throw new FermixError({
      code: 'invalid_arguments',
      message: 'web_fetch needs `url`, a public http(s) URL as a string.',
      hint: 'Call web_fetch again with {"url": "https://…"}; use web_search when you have no URL.',
    });
  }
  return formatFetchResult(await fetchPage({ url }, netDepsFrom(context)));
};

export const webFetch = defineBuiltin({
  name: 'web_fetch',
  description:
    "Fetch a public URL through Net.Guard, with IP pinning and at most 5 redirects. Returns the page's readable text, or the JSON verbatim when the endpoint serves JSON; bodies past 1 MiB (1,048,576 bytes) are truncated and the result says so.",
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
    { tag: 'redirect_limit', description: 'more than 5 redirects' },
    { tag: 'network', description: 'transport failure or a non-2xx status (network: HTTP <status>)' },
    { tag: 'timeout', description: 'no connection within 3 s or no complete response within 15 s' },
    { tag: 'unsupported_content_type', description: 'the URL serves binary data (image, PDF, archive), not HTML, JSON or text' },
  ],
  scope_requirements: ['net:outbound'],
  // URLs carry tokens in query strings; the audit scrubs them.
  audit_behavior: 'redact_args',
  executor: executeWebFetch,
});
