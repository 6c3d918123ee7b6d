import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecutionContext } from '../core/capabilities/capability.js';
import { createTestPolicy } from '../net/test-policy.js';
import { rejectionOf, startHttpServer, type LocalServer } from '../net/test-support.js';
import { webFetch } from './web-fetch.js';

/** The web_fetch executor against a real server on 127.0.0.1, reachable only through the test policy. */
const policy = createTestPolicy();
let server: LocalServer;

const ROUTES: Record<string, { type?: string; body: Buffer | string; status?: number; headers?: Record<string, string> }> = {
  '/page': { type: 'text/html; charset=utf-8', body: '<html><head><title>Release notes</title><script>track()</script></head><body><nav>menu</nav><h1>Node 20</h1><p>See <a href="/next">the next page</a> &amp; more.</p></body></html>' },
  '/data': { type: 'application/json', body: '{"version":"20.20.2","lts":"Iron","big":9007199254740993}' },
  '/huge': { type: 'text/plain', body: Buffer.alloc(1_048_576 + 5_000, 'z') },
  '/moved': { body: '', status: 302, headers: { location: '/data' } },
  '/missing': { type: 'text/html', body: 'gone', status: 404 },
  '/empty': { type: 'text/plain', body: '' },
};

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    const route = ROUTES[request.url ?? ''];
    if (!route) return response.writeHead(500).end();
    response.writeHead(route.status ?? 200, { ...(route.type ? { 'content-type': route.type } : {}), ...route.headers }).end(route.body);
  });
});
afterAll(() => server?.close());

function context(net: Record<string, unknown> | null = { policy, userAgent: 'fermix/test' }): ExecutionContext {
  return { trust: 'operator', origin: 'chat', signal: new AbortController().signal, services: net === null ? {} : { net } };
}

const fetchPath = (path: string, ctx = context()) => webFetch.executor!({ url: `${server.origin}${path}` }, ctx);

describe('web_fetch executor', () => {
  it('returns JSON verbatim (laid out, big integers intact) under a header naming URL, status and type', async () => {
    const result = await fetchPath('/data');
    const json = '{\n  "version": "20.20.2",\n  "lts": "Iron",\n  "big": 9007199254740993\n}';
    expect(result.text).toBe([`URL: ${server.origin}/data`, 'Status: 200', 'Content-Type: application/json', '', json].join('\n'));
    expect(result.data).toEqual({
      url: `${server.origin}/data`,
      final_url: `${server.origin}/data`,
      status: 200,
      content_type: 'application/json',
      truncated: false,
      text_chars: json.length,
    });
  });

  it('turns HTML into readable text without scripts or navigation', async () => {
    const result = await fetchPath('/page');
    expect(result.text).toContain('Content-Type: text/html');
    expect(result.text).toContain(`Title: Release notes\n\n# Node 20\n\nSee [the next page](${server.origin}/next) & more.`);
    expect(result.text).not.toContain('track()');
    expect(result.text).not.toContain('menu');
  });

  it('says when the body was truncated at 1,048,576 bytes', async () => {
    const result = await fetchPath('/huge');
    expect(result.text).toContain('[Truncated: the response was larger than 1,048,576 bytes; only the first 1,048,576 bytes were read.]');
    expect(result.data).toMatchObject({ truncated: true, text_chars: 1_048_576 });
    expect((await fetchPath('/data')).text).not.toContain('Truncated');
  });

  it('names the final URL after a redirect', async () => {
    const result = await fetchPath('/moved');
    expect(result.text).toContain(`URL: ${server.origin}/moved\nFinal URL (after redirects): ${server.origin}/data\nStatus: 200`);
  });

  it('says so when the body is empty', async () => {
    expect((await fetchPath('/empty')).text).toMatch(/\n\n\(the response body is empty\)$/u);
  });

  it('passes the injected user agent', async () => {
    await fetchPath('/data');
    expect(server.requests.at(-1)?.headers['user-agent']).toBe('fermix/test');
  });

  it('refuses loopback and metadata URLs with blocked_url under the default policy (no services.net)', async () => {
    const before = server.requests.length;
    for (const url of [`${server.origin}/data`, 'http://169.254.169.254/latest/meta-data/', 'http://localhost/', 'file:///etc/passwd']) {
      const error = await rejectionOf(webFetch.executor!({ url }, context(null)));
      expect(error.code, url).toBe('blocked_url');
      expect(error.hint).toContain('public');
    }
    expect(server.requests.length).toBe(before);
  });

  it('ignores a look-alike policy that was not minted by createTestPolicy', async () => {
    const error = await rejectionOf(fetchPath('/data', context({ policy: { allowLoopbackForTests: true } })));
    expect(error.code).toBe('blocked_url');
  });

  it('keeps Net.Guard codes: an HTTP error is network', async () => {
    const error = await rejectionOf(fetchPath('/missing'));
    expect(error.code).toBe('network');
    expect(error.message).toBe(`network: HTTP 404 from ${server.origin}/missing.`);
  });

  it('refuses a non-string url with invalid_arguments', async () => {
    for (const args of [{}, { url: 42 }, { url: '' }]) {
      const error = await rejectionOf(webFetch.executor!(args, context()));
      expect(error.code).toBe('invalid_arguments');
    }
  });

  it('stops when the call is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(webFetch.executor!({ url: `${server.origin}/data` }, { ...context(), signal: controller.signal }));
    expect(error.code).toBe('cancelled');
  });
});
