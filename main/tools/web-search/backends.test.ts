import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../../core/capabilities/capability.js';
import { createTestPolicy } from '../../net/test-policy.js';
import { rejectionOf } from '../../net/test-support.js';
import { webSearch } from '../web-search.js';
import type { BackendName } from './backend.js';
import { parseResults } from './duckduckgo.js';
import { DDG_PAGE, DOCUMENTED_EMPTY, KEY_NAMES, startVendorFakes, VENDOR_HOSTS, type VendorFakes } from './test-fakes.js';

/**
 * Every backend against a local HTTPS fake that answers with the vendor's documented response shape. The
 * fakes carry certificates for the real vendor host names, and the requests reach them through Net.Guard:
 * resolved by the injected lookup, pinned to 127.0.0.1 (allowed only by the test policy), with SNI and Host
 * set to the vendor's name.
 */
let fakes: VendorFakes;
const policy = createTestPolicy();
const KEYS: Record<string, string> = Object.fromEntries(Object.values(KEY_NAMES).map((name) => [name, `test-${name.toLowerCase()}-1234567890`]));

beforeAll(async () => {
  fakes = await startVendorFakes();
}, 30_000);
afterAll(() => fakes?.close());
beforeEach(() => fakes.reset());

function context(backend: BackendName): ExecutionContext {
  return {
    trust: 'operator',
    origin: 'cli',
    signal: new AbortController().signal,
    services: {
      net: { policy, lookup: fakes.lookup, ca: fakes.ca, userAgent: 'fermix/test' },
      secrets: { get: async (name: string) => KEYS[name] },
      webSearch: { backend, baseUrls: fakes.baseUrls },
    },
  };
}

const search = (backend: BackendName, query = 'node lts') => webSearch.executor!({ query }, context(backend));

interface ResultData {
  backend: string;
  result_count: number;
  results: Array<{ title: string; url: string; snippet: string }>;
  degraded: boolean;
}

/** What each backend must have sent: method, documented path, and where the key goes. */
const REQUESTS: Record<Exclude<BackendName, 'duckduckgo'>, { method: string; path: RegExp; key: (h: Record<string, unknown>) => unknown; body?: Record<string, unknown> }> = {
  brave: { method: 'GET', path: /^\/res\/v1\/web\/search\?q=node\+lts&count=10$/u, key: (h) => h['x-subscription-token'] },
  exa: { method: 'POST', path: /^\/search$/u, key: (h) => h['x-api-key'], body: { query: 'node lts', numResults: 10 } },
  tavily: { method: 'POST', path: /^\/search$/u, key: (h) => String(h.authorization).replace(/^Bearer /u, ''), body: { query: 'node lts', max_results: 10 } },
  parallel: { method: 'POST', path: /^\/v1beta\/search$/u, key: (h) => h['x-api-key'], body: { objective: 'node lts', search_queries: ['node lts'], max_results: 10 } },
  perplexity: { method: 'POST', path: /^\/search$/u, key: (h) => String(h.authorization).replace(/^Bearer /u, ''), body: { query: 'node lts', max_results: 10 } },
  firecrawl: { method: 'POST', path: /^\/v1\/search$/u, key: (h) => String(h.authorization).replace(/^Bearer /u, ''), body: { query: 'node lts', limit: 10 } },
};

describe.each(Object.keys(REQUESTS) as Array<keyof typeof REQUESTS>)('%s backend', (name) => {
  it('sends the documented request through Net.Guard and normalizes the documented response', async () => {
    const result = await search(name);
    const data = result.data as ResultData;
    expect(data.backend).toBe(name);
    expect(data.degraded).toBe(false);
    expect(data.result_count).toBe(2);
    expect(data.results.map((hit) => hit.url)).toEqual(['https://nodejs.org/en/about/releases', 'https://endoflife.date/nodejs']);
    for (const hit of data.results) {
      expect(hit.title).not.toMatch(/<|&amp;/u);
      expect(hit.snippet).not.toMatch(/<|&amp;/u);
      expect(hit.snippet.length).toBeGreaterThan(0);
    }
    expect(result.text).toContain('Results for "node lts"');
    expect(result.text).toContain('1. ');
    expect(result.text).toContain('https://endoflife.date/nodejs');

    const calls = fakes.calls(name);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    const expected = REQUESTS[name];
    expect(call.method).toBe(expected.method);
    expect(call.path).toMatch(expected.path);
    expect(expected.key(call.headers)).toBe(KEYS[KEY_NAMES[name]]);
    expect(call.servername).toBe(VENDOR_HOSTS[name]);
    expect(call.headers.host).toBe(`${VENDOR_HOSTS[name]}:${new URL(fakes.baseUrls[name]).port}`);
    expect(call.headers['user-agent']).toBe('fermix/test');
    if (expected.body) {
      expect(call.headers['content-type']).toBe('application/json');
      expect(JSON.parse(call.body)).toMatchObject(expected.body);
      // The key travels in a header only, never in the body.
      expect(call.body).not.toContain(KEYS[KEY_NAMES[name]]);
    }
    expect(fakes.calls('duckduckgo')).toHaveLength(0);
  });

  it('answers the documented empty response with "no results", without degrading', async () => {
    fakes.reply(name, DOCUMENTED_EMPTY[name]);
    const result = await search(name, 'zzqx');
    expect(result.text).toMatch(/^No results for "zzqx" from /u);
    expect(result.data).toMatchObject({ backend: name, result_count: 0, results: [], degraded: false });
    expect(fakes.calls('duckduckgo')).toHaveLength(0);
  });
});

describe('brave specifics', () => {
  it('strips <strong> highlighting and decodes entities', async () => {
    const data = (await search('brave')).data as ResultData;
    expect(data.results[0]).toEqual({
      title: 'Node.js Releases',
      url: 'https://nodejs.org/en/about/releases',
      snippet: 'Node.js LTS & Current schedules.',
    });
  });
});

describe('exa specifics', () => {
  it('prefers a highlight over the page text for the snippet', async () => {
    const data = (await search('exa')).data as ResultData;
    expect(data.results[0].snippet).toBe('Major Node.js versions enter Current status for six months.');
    expect(data.results[1].snippet).toBe('Node.js 20 reaches end of life in April 2026.');
  });
});

describe('parallel specifics', () => {
  it('joins the excerpts into one snippet', async () => {
    const data = (await search('parallel')).data as ResultData;
    expect(data.results[0].snippet).toBe('Major versions enter Current status. … Even-numbered releases move to Active LTS.');
  });
});

describe('firecrawl specifics', () => {
  it('reads the v2 layout (data.web) too', async () => {
    fakes.reply('firecrawl', { body: { success: true, data: { web: [{ url: 'https://a.example/', title: 'A', description: 'a', position: 1 }] } } });
    expect(((await search('firecrawl')).data as ResultData).results).toEqual([{ title: 'A', url: 'https://a.example/', snippet: 'a' }]);
  });

  it('treats success:false as a provider error (and degrades)', async () => {
    fakes.reply('firecrawl', { body: { success: false, error: 'Insufficient credits' } });
    const result = await search('firecrawl');
    expect(result.data).toMatchObject({ degraded: true, primary_backend: 'firecrawl', fallback_reason: 'provider_error' });
    expect(result.text).toContain('Insufficient credits');
  });
});

describe('duckduckgo backend (the keyless default)', () => {
  it('GETs /html/?q=… on html.duckduckgo.com, skips the ad, unwraps /l/?uddg= links, and cleans the text', async () => {
    const result = await search('duckduckgo');
    expect(result.data).toEqual({
      backend: 'duckduckgo',
      result_count: 2,
      degraded: false,
      results: [
        {
          title: 'Node.js — Previous Releases',
          url: 'https://nodejs.org/en/about/previous-releases',
          snippet: "Major Node.js versions enter Current release status for six months' time.",
        },
        { title: 'Node.js | endoflife.date', url: 'https://endoflife.date/nodejs', snippet: 'Check end-of-life, release policy & support schedule.' },
      ],
    });
    const [call] = fakes.calls('duckduckgo');
    expect(call.method).toBe('GET');
    expect(call.path).toBe('/html/?q=node+lts');
    expect(call.servername).toBe('html.duckduckgo.com');
    expect(call.headers['x-subscription-token']).toBeUndefined();
    expect(call.headers.authorization).toBeUndefined();
  });

  it('needs no key and no secrets service', async () => {
    const ctx = context('duckduckgo');
    delete ctx.services.secrets;
    expect(((await webSearch.executor!({ query: 'node lts' }, ctx)).data as ResultData).result_count).toBe(2);
  });

  it('caps the list at 10 results', () => {
    const many = Array.from({ length: 14 }, (_, i) =>
      `<a class="result__a" href="https://site${i}.example/">Result ${i}</a><a class="result__snippet" href="#">s${i}</a>`).join('\n');
    const hits = parseResults(`<div class="results">${many}</div>`);
    expect(hits).toHaveLength(10);
    expect(hits[9]).toEqual({ title: 'Result 9', url: 'https://site9.example/', snippet: 's9' });
  });

  it('reports a page without results or the no-results marker as parser_changed', async () => {
    fakes.reply('duckduckgo', { body: '<html><body><div class="serp">redesigned</div></body></html>' });
    const error = await rejectionOf(search('duckduckgo'));
    expect(error.code).toBe('parser_changed');
    expect(error.message).toContain('DuckDuckGo');
    expect(parseResults(DDG_PAGE)).toHaveLength(2);
  });

  it('reports the bot challenge (HTTP 202) as rate_limited, with no second attempt', async () => {
    fakes.reply('duckduckgo', { status: 202, body: '<html><body><div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div></body></html>' });
    const error = await rejectionOf(search('duckduckgo'));
    expect(error.code).toBe('rate_limited');
    expect(fakes.calls('duckduckgo')).toHaveLength(1);
  });
});
