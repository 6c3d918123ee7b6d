/**
 * Test-only: one local HTTPS server per search vendor, each with a certificate for the vendor's real host
 * name (a throwaway CA per host, from net/test-support.ts), and a `lookup` that maps those names to
 * 127.0.0.1. Tests pass `lookup`, `ca` and `baseUrls` (the vendor host with the fake's port) to web_search,
 * plus createTestPolicy() themselves — this file never opens loopback on its own.
 * The canned bodies follow each vendor's documented response shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HostResolver } from '../../net/index.js';
import { makeTestCertificates, startHttpsServer, type LocalServer, type TestCertificates } from '../../net/test-support.js';
import { BACKEND_NAMES, type BackendName } from './backend.js';

export const VENDOR_HOSTS: Readonly<Record<BackendName, string>> = {
  duckduckgo: 'html.duckduckgo.com',
  brave: 'api.search.brave.com',
  exa: 'api.exa.ai',
  tavily: 'api.tavily.com',
  parallel: 'api.parallel.ai',
  perplexity: 'api.perplexity.ai',
  firecrawl: 'api.firecrawl.dev',
};

export const KEY_NAMES: Readonly<Record<Exclude<BackendName, 'duckduckgo'>, string>> = {
  brave: 'BRAVE_API_KEY',
  exa: 'EXA_API_KEY',
  tavily: 'TAVILY_API_KEY',
  parallel: 'PARALLEL_API_KEY',
  perplexity: 'PERPLEXITY_API_KEY',
  firecrawl: 'FIRECRAWL_API_KEY',
};

export interface SeenCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  servername: string | undefined;
  body: string;
}

export interface FakeReply {
  status?: number;
  /** Objects are sent as JSON. */
  body: string | object;
  type?: string;
  headers?: Record<string, string>;
}

export type FakeHandler = (call: SeenCall) => FakeReply;

export interface VendorFakes {
  baseUrls: Record<BackendName, string>;
  lookup: HostResolver;
  ca: string[];
  calls(name: BackendName): SeenCall[];
  /** Sets what one vendor answers from now on (default: its documented success shape). */
  reply(name: BackendName, handler: FakeHandler | FakeReply): void;
  /** Makes DNS fail for a vendor host (ENOTFOUND), as when the machine is offline. */
  failDns(name: BackendName): void;
  /** Back to documented success answers, working DNS, no recorded calls. */
  reset(): void;
  close(): Promise<void>;
}

export async function startVendorFakes(): Promise<VendorFakes> {
  const certs = new Map<BackendName, TestCertificates>();
  const servers = new Map<BackendName, LocalServer>();
  const handlers = new Map<BackendName, FakeHandler>();
  const seen = new Map<BackendName, SeenCall[]>();
  const dnsFailures = new Set<string>();
  const reset = () => {
    for (const name of BACKEND_NAMES) {
      handlers.set(name, () => DOCUMENTED[name]);
      seen.set(name, []);
    }
    dnsFailures.clear();
  };
  reset();

  await Promise.all(BACKEND_NAMES.map(async (name) => {
    const tls = await makeTestCertificates(VENDOR_HOSTS[name]);
    certs.set(name, tls);
    servers.set(name, await startHttpsServer(tls, (request, response) => answer(name, request, response)));
  }));

  function answer(name: BackendName, request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const servername = (request.socket as { servername?: string | false }).servername;
      const call: SeenCall = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        servername: typeof servername === 'string' ? servername : undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.get(name)?.push(call);
      const reply = (handlers.get(name) ?? (() => DOCUMENTED[name]))(call);
      const json = typeof reply.body !== 'string';
      response.writeHead(reply.status ?? 200, {
        'content-type': reply.type ?? (json ? 'application/json' : 'text/html; charset=utf-8'),
        ...reply.headers,
      });
      response.end(json ? JSON.stringify(reply.body) : reply.body);
    });
  }

  const byHost = new Map(BACKEND_NAMES.map((name) => [VENDOR_HOSTS[name], name]));
  return {
    baseUrls: Object.fromEntries(BACKEND_NAMES.map((name) => [name, `https://${VENDOR_HOSTS[name]}:${servers.get(name)?.port}`])) as Record<BackendName, string>,
    lookup: async (hostname) => {
      if (!byHost.has(hostname) || dnsFailures.has(hostname)) {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      }
      return [{ address: '127.0.0.1', family: 4 }];
    },
    ca: [...certs.values()].map((tls) => tls.ca),
    calls: (name) => seen.get(name) ?? [],
    reply: (name, handler) => void handlers.set(name, typeof handler === 'function' ? handler : () => handler),
    failDns: (name) => void dnsFailures.add(VENDOR_HOSTS[name]),
    reset,
    close: async () => {
      await Promise.all([...servers.values()].map((server) => server.close()));
      await Promise.all([...certs.values()].map((tls) => tls.cleanup()));
    },
  };
}

/** DuckDuckGo's HTML endpoint, trimmed: one ad, two organic results (one via the /l/?uddg= redirect). */
export const DDG_PAGE = `<!DOCTYPE html>
<html><head><title>node lts at DuckDuckGo</title></head><body>
<div class="serp__results"><div id="links" class="results">
  <div class="result results_links results_links_deep result--ad">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;ad_provider=x&amp;u3=abc">Sponsored hosting</a></h2>
      <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Buy now</a>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title">
        <a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fnodejs.org%2Fen%2Fabout%2Fprevious%2Dreleases&amp;rut=f00">Node.js &mdash; <b>Previous</b> Releases</a>
      </h2>
      <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="//duckduckgo.com/l/?uddg=x">nodejs.org/en/about/previous-releases</a></div></div>
      <a class="result__snippet" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fnodejs.org%2F">Major Node.js versions enter <b>Current</b> release status for six months&#x27; time.</a>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://endoflife.date/nodejs">Node.js | endoflife.date</a></h2>
      <a class="result__snippet" href="https://endoflife.date/nodejs">Check end-of-life, release policy &amp; support schedule.</a>
    </div>
  </div>
</div></div></body></html>`;

export const DDG_EMPTY_PAGE = `<!DOCTYPE html><html><body><div id="links" class="results">
<div class="no-results">No  results.</div></div></body></html>`;

/** Each vendor's documented success shape (field names from its API reference). */
export const DOCUMENTED: Readonly<Record<BackendName, FakeReply>> = {
  duckduckgo: { body: DDG_PAGE },
  brave: {
    body: {
      type: 'search',
      query: { original: 'node lts', more_results_available: true },
      mixed: { type: 'mixed', main: [{ type: 'web', index: 0, all: false }] },
      web: {
        type: 'search',
        family_friendly: true,
        results: [
          { type: 'search_result', title: 'Node.js <strong>Releases</strong>', url: 'https://nodejs.org/en/about/releases', description: 'Node.js <strong>LTS</strong> &amp; Current schedules.', age: 'May 1, 2024', language: 'en' },
          { type: 'search_result', title: 'Node.js - endoflife.date', url: 'https://endoflife.date/nodejs', description: 'Support dates for every <strong>release</strong>.' },
        ],
      },
    },
  },
  exa: {
    body: {
      requestId: 'b5947044c4b78efa9552a7c89b306d95',
      resolvedSearchType: 'neural',
      results: [
        { id: 'https://nodejs.org/en/about/releases', title: 'Node.js Releases', url: 'https://nodejs.org/en/about/releases', publishedDate: '2024-05-01T00:00:00.000Z', author: null, text: 'Major Node.js versions enter Current status for six months.' },
        { id: 'https://endoflife.date/nodejs', title: 'Node.js | endoflife.date', url: 'https://endoflife.date/nodejs', publishedDate: null, author: null, text: 'Release dates and end of life.', highlights: ['Node.js 20 reaches end of life in April 2026.'] },
      ],
      costDollars: { total: 0.005 },
    },
  },
  tavily: {
    body: {
      query: 'node lts',
      follow_up_questions: null,
      answer: null,
      images: [],
      results: [
        { title: 'Node.js Releases', url: 'https://nodejs.org/en/about/releases', content: 'Production applications should only use Active LTS or Maintenance LTS releases.', score: 0.93, raw_content: null },
        { title: 'Node.js | endoflife.date', url: 'https://endoflife.date/nodejs', content: 'Node.js 20 end of life: 30 Apr 2026.', score: 0.88, raw_content: null },
      ],
      response_time: 1.09,
    },
  },
  parallel: {
    body: {
      search_id: 'search_fcb2b4f3-c75e-4186-87bc-caa1a8381331',
      results: [
        { url: 'https://nodejs.org/en/about/releases', title: 'Node.js Releases', excerpts: ['Major versions enter Current status.', 'Even-numbered releases move to Active LTS.'] },
        { url: 'https://endoflife.date/nodejs', title: 'Node.js | endoflife.date', excerpts: ['Node.js 20: end of life 30 Apr 2026.'] },
      ],
    },
  },
  perplexity: {
    body: {
      id: 'e38104d5-6bd8-4e8a-9c6e-0b1e2e7b6f1a',
      server_time: null,
      results: [
        { title: 'Node.js Releases', url: 'https://nodejs.org/en/about/releases', snippet: 'Major Node.js versions enter Current release status for six months.', date: '2024-05-01', last_updated: '2025-01-10' },
        { title: 'Node.js | endoflife.date', url: 'https://endoflife.date/nodejs', snippet: 'Node.js 20 is supported until 30 Apr 2026.', date: null, last_updated: null },
      ],
    },
  },
  firecrawl: {
    body: {
      success: true,
      data: [
        { url: 'https://nodejs.org/en/about/releases', title: 'Node.js Releases', description: 'Node.js release schedule and LTS policy.' },
        { url: 'https://endoflife.date/nodejs', title: 'Node.js | endoflife.date', description: 'End of life dates for Node.js.' },
      ],
    },
  },
};

/** Each vendor's documented answer to a query with no results. */
export const DOCUMENTED_EMPTY: Readonly<Record<BackendName, FakeReply>> = {
  duckduckgo: { body: DDG_EMPTY_PAGE },
  brave: { body: { type: 'search', query: { original: 'zzqx', more_results_available: false }, mixed: { type: 'mixed', main: [] } } },
  exa: { body: { requestId: 'r', resolvedSearchType: 'neural', results: [] } },
  tavily: { body: { query: 'zzqx', answer: null, images: [], results: [], response_time: 0.4 } },
  parallel: { body: { search_id: 'search_empty', results: [] } },
  perplexity: { body: { id: 'empty', results: [] } },
  firecrawl: { body: { success: true, data: [] } },
};
