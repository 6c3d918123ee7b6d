import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../core/capabilities/capability.js';
import { createTestPolicy } from '../net/test-policy.js';
import { rejectionOf } from '../net/test-support.js';
import { webSearch } from './web-search.js';
import type { BackendName } from './web-search/backend.js';
import { DOCUMENTED_EMPTY, startVendorFakes, type VendorFakes } from './web-search/test-fakes.js';

/**
 * web_search's policy against local HTTPS fakes of the vendors (see web-search/test-fakes.ts): when it
 * degrades to DuckDuckGo (once, loudly), when it must not (auth errors, empty results, cancellation), and
 * the query limits. Backend request/response shapes are covered in web-search/backends.test.ts.
 */
let fakes: VendorFakes;
const policy = createTestPolicy();
const BRAVE_KEY = 'brave-test-key-0123456789';

beforeAll(async () => {
  fakes = await startVendorFakes();
}, 30_000);
afterAll(() => fakes?.close());
beforeEach(() => fakes.reset());

interface Setup {
  backend?: BackendName;
  keys?: Record<string, string>;
  signal?: AbortSignal;
  testPolicy?: boolean;
  warnings?: Array<{ msg: string; fields?: Record<string, unknown> }>;
}

function context(setup: Setup = {}): ExecutionContext {
  const services: Record<string, unknown> = {
    net: { ...(setup.testPolicy === false ? {} : { policy }), lookup: fakes.lookup, ca: fakes.ca },
    secrets: { get: (name: string) => (setup.keys ?? { BRAVE_API_KEY: BRAVE_KEY })[name] },
    webSearch: { ...(setup.backend ? { backend: setup.backend } : {}), baseUrls: fakes.baseUrls },
  };
  if (setup.warnings) services.logger = { warn: (msg: string, fields?: Record<string, unknown>) => setup.warnings?.push({ msg, fields }) };
  return { trust: 'operator', origin: 'chat', signal: setup.signal ?? new AbortController().signal, services };
}

const search = (setup: Setup = {}, query = 'node lts') => webSearch.executor!({ query }, context(setup));

describe('degrading once to DuckDuckGo, loudly', () => {
  const cases: Array<[string, () => void, string]> = [
    ['rate limit (429)', () => fakes.reply('brave', { status: 429, body: { error: { code: 'RATE_LIMITED', detail: 'Request rate limit exceeded' } }, headers: { 'retry-after': '2' } }), 'rate_limited'],
    ['provider error (500)', () => fakes.reply('brave', { status: 500, body: 'upstream failure', type: 'text/plain' }), 'provider_error'],
    ['out of credits (402)', () => fakes.reply('brave', { status: 402, body: { error: 'quota exhausted' } }), 'provider_error'],
    ['network failure (DNS)', () => fakes.failDns('brave'), 'network'],
    ['changed response shape', () => fakes.reply('brave', { body: { type: 'search', web: { type: 'search', items: [] } } }), 'parser_changed'],
    ['a body that is no longer JSON', () => fakes.reply('brave', { body: '<html>maintenance</html>', type: 'text/html' }), 'parser_changed'],
    ['renamed result fields', () => fakes.reply('brave', { body: { type: 'search', web: { results: [{ name: 'x', link: 'https://x.example/' }] } } }), 'parser_changed'],
  ];

  it.each(cases)('%s → DuckDuckGo results with a warning line and the audit fields', async (_label, arrange, reason) => {
    arrange();
    const warnings: NonNullable<Setup['warnings']> = [];
    const result = await search({ backend: 'brave', warnings });

    expect(result.text.split('\n')[0]).toMatch(new RegExp(`^⚠ Warning: Brave Search failed \\(${reason}: .+\\) These results come from DuckDuckGo instead\\.$`, 'u'));
    expect(result.text).toContain('Results for "node lts" from DuckDuckGo (2):');
    expect(result.data).toMatchObject({
      backend: 'duckduckgo',
      degraded: true,
      primary_backend: 'brave',
      fallback_reason: reason,
      result_count: 2,
    });
    expect(warnings).toEqual([expect.objectContaining({
      msg: 'web_search degraded to DuckDuckGo',
      fields: expect.objectContaining({ degraded: true, primary_backend: 'brave', fallback_reason: reason }),
    })]);
    // Once: one request to the primary (no retry), one to DuckDuckGo.
    expect(fakes.calls('brave').length).toBe(reason === 'network' ? 0 : 1);
    expect(fakes.calls('duckduckgo')).toHaveLength(1);
  });

  it('degrades from a backend whose server refuses the connection', async () => {
    const ctx = context({ backend: 'exa', keys: { EXA_API_KEY: 'exa-key-0123456789' } });
    // Port 1 on 127.0.0.1: nothing listens there, so the connect is refused.
    (ctx.services.webSearch as { baseUrls: Record<string, string> }).baseUrls = { ...fakes.baseUrls, exa: 'https://api.exa.ai:1' };
    const result = await webSearch.executor!({ query: 'node lts' }, ctx);
    expect(result.data).toMatchObject({ degraded: true, primary_backend: 'exa', fallback_reason: 'network' });
    expect(result.text).toMatch(/^⚠ Warning: Exa failed \(network: Exa could not be reached/u);
  });

  it('shows the original error when DuckDuckGo fails too, and tries DuckDuckGo only once', async () => {
    fakes.reply('tavily', { status: 503, body: { detail: 'down for maintenance' } });
    fakes.reply('duckduckgo', { status: 500, body: 'oops', type: 'text/plain' });
    const error = await rejectionOf(search({ backend: 'tavily', keys: { TAVILY_API_KEY: 'tvly-0123456789' } }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toBe('Tavily returned HTTP 503. The fall-back to DuckDuckGo failed too (provider_error).');
    expect(error.data).toMatchObject({ backend: 'tavily', status: 503, detail: 'down for maintenance', fallback_backend: 'duckduckgo', fallback_error: { code: 'provider_error' } });
    expect(fakes.calls('tavily')).toHaveLength(1);
    expect(fakes.calls('duckduckgo')).toHaveLength(1);
  });

  it('sends every request through Net.Guard: under the default policy the loopback fakes are refused', async () => {
    const error = await rejectionOf(search({ backend: 'brave', testPolicy: false }));
    expect(error.code).toBe('network');
    expect(error.data).toMatchObject({ reason: 'blocked_url', fallback_error: { code: 'network' } });
    expect(error.message).toContain('resolves to a loopback address');
    expect(fakes.calls('brave')).toHaveLength(0);
    expect(fakes.calls('duckduckgo')).toHaveLength(0);
  });
});

describe('not degrading', () => {
  it.each([401, 403])('an auth error (%i) is a clear error naming the key and the fix, and DuckDuckGo is not asked', async (status) => {
    fakes.reply('brave', { status, body: { error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } } });
    const error = await rejectionOf(search({ backend: 'brave' }));
    expect(error.code).toBe('auth_failed');
    expect(error.message).toBe(`Brave Search rejected the key in BRAVE_API_KEY (HTTP ${status}).`);
    expect(error.hint).toContain('`fermix secrets set BRAVE_API_KEY`');
    expect(error.data).toMatchObject({ backend: 'brave', key_name: 'BRAVE_API_KEY', detail: 'The provided subscription token is invalid.' });
    expect(fakes.calls('brave')).toHaveLength(1);
    expect(fakes.calls('duckduckgo')).toHaveLength(0);
  });

  it('a missing key is an auth error before any request, with the same fix', async () => {
    const error = await rejectionOf(search({ backend: 'perplexity', keys: {} }));
    expect(error.code).toBe('auth_failed');
    expect(error.message).toBe('web_search is set to Perplexity, but no PERPLEXITY_API_KEY is stored.');
    expect(error.hint).toContain('`fermix secrets set PERPLEXITY_API_KEY`');
    expect(fakes.calls('perplexity')).toHaveLength(0);
    expect(fakes.calls('duckduckgo')).toHaveLength(0);
  });

  it('empty results are an answer, not a failure', async () => {
    fakes.reply('brave', DOCUMENTED_EMPTY.brave);
    const result = await search({ backend: 'brave' });
    expect(result.text).toBe('No results for "node lts" from Brave Search.');
    expect(result.text).not.toContain('Warning');
    expect(result.data).toEqual({ backend: 'brave', result_count: 0, results: [], degraded: false });
    expect(fakes.calls('duckduckgo')).toHaveLength(0);
  });

  it('a cancelled call stays cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(search({ backend: 'brave', signal: controller.signal }));
    expect(error.code).toBe('cancelled');
    expect(fakes.calls('duckduckgo')).toHaveLength(0);
  });

  it('DuckDuckGo as the primary does not fall back to itself', async () => {
    fakes.reply('duckduckgo', { status: 429, body: 'slow down', type: 'text/plain' });
    const error = await rejectionOf(search({ backend: 'duckduckgo' }));
    expect(error.code).toBe('rate_limited');
    expect(fakes.calls('duckduckgo')).toHaveLength(1);
  });
});

describe('query and configuration', () => {
  it('refuses a query over 1,024 characters before any request', async () => {
    const error = await rejectionOf(search({}, 'x'.repeat(1025)));
    expect(error.code).toBe('query_too_long');
    expect(error.message).toBe('The query is 1025 characters long; web_search takes at most 1024.');
    expect(fakes.calls('duckduckgo')).toHaveLength(0);
  });

  it('accepts exactly 1,024 characters, counting an emoji as one', async () => {
    await search({}, '🔎'.repeat(1024));
    expect(fakes.calls('duckduckgo')).toHaveLength(1);
    expect(decodeURIComponent(fakes.calls('duckduckgo')[0].path.slice('/html/?q='.length))).toBe('🔎'.repeat(1024));
  });

  it.each([[{}], [{ query: '   ' }], [{ query: 42 }]])('refuses a missing or blank query (%j) with invalid_query', async (args) => {
    const error = await rejectionOf(webSearch.executor!(args, context()));
    expect(error.code).toBe('invalid_query');
  });

  it('uses DuckDuckGo when no backend is configured', async () => {
    const ctx = context();
    ctx.services.webSearch = { baseUrls: fakes.baseUrls };
    delete ctx.services.secrets;
    const result = await webSearch.executor!({ query: 'node lts' }, ctx);
    expect(result.data).toMatchObject({ backend: 'duckduckgo', degraded: false });
  });

  it('refuses an unknown backend name with the config fix', async () => {
    const ctx = context();
    ctx.services.webSearch = { backend: 'google' };
    const error = await rejectionOf(webSearch.executor!({ query: 'q' }, ctx));
    expect(error.code).toBe('invalid_config');
    expect(error.hint).toContain('[fermix_core.tools.web_search]');
  });

  it('lists the failure tags it can raise', () => {
    const tags = webSearch.metadata.failure_modes?.map((mode) => mode.tag);
    expect(tags).toEqual(['invalid_query', 'query_too_long', 'auth_failed', 'rate_limited', 'provider_error', 'parser_changed', 'network']);
  });
});
