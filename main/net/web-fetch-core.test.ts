import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPolicy } from './test-policy.js';
import { rejectionOf, startHttpServer, type LocalServer } from './test-support.js';
import { webFetch } from './web-fetch-core.js';

const policy = createTestPolicy();
let server: LocalServer;

const ROUTES: Record<string, { type?: string; body: Buffer | string; status?: number; headers?: Record<string, string> }> = {
  '/page': { type: 'text/html; charset=utf-8', body: '<html><head><title>T</title><script>x()</script></head><body><nav>menu</nav><h1>Hi</h1><p>See <a href="/next">next</a>.</p></body></html>' },
  '/data': { type: 'application/json', body: '{"big":9007199254740993,"list":[1,2]}' },
  '/bad-json': { type: 'application/json', body: '{"cut": ' },
  '/notes': { type: 'text/markdown', body: '# Notes\n\n* keep  as-is\n' },
  '/invalid-utf8': { type: 'text/plain', body: Buffer.from([0x6f, 0x6b, 0xc3, 0x28, 0x21]) },
  '/image': { type: 'image/png', body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  '/untyped-binary': { body: Buffer.from([0x00, 0x01, 0x02]) },
  '/untyped-html': { body: '<!doctype html><p>sniffed</p>' },
  '/missing': { type: 'text/html', body: '<p>not here</p>', status: 404 },
  '/huge': { type: 'text/plain', body: Buffer.alloc(1_048_576 + 10_000, 'z') },
  '/gzip': { type: 'text/plain', body: gzipSync('compressed text'), headers: { 'content-encoding': 'gzip' } },
  '/moved': { body: '', status: 301, headers: { location: '/page' } },
  '/to-metadata': { body: '', status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } },
};

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    const route = ROUTES[request.url ?? ''];
    if (!route) return response.writeHead(500).end();
    const headers: Record<string, string> = { ...(route.headers ?? {}) };
    if (route.type) headers['content-type'] = route.type;
    response.writeHead(route.status ?? 200, headers).end(route.body);
  });
});
afterAll(() => server.close());

const fetchPath = (path: string) => webFetch({ url: `${server.origin}${path}` }, { policy });

describe('webFetch', () => {
  it('turns HTML into readable text with absolute links', async () => {
    const result = await fetchPath('/page');
    expect(result).toEqual({
      url: `${server.origin}/page`,
      final_url: `${server.origin}/page`,
      status: 200,
      content_type: 'text/html',
      text: `Title: T\n\n# Hi\n\nSee [next](${server.origin}/next).`,
      truncated: false,
    });
  });

  it('returns JSON verbatim, laid out, without losing big integers', async () => {
    const result = await fetchPath('/data');
    expect(result.content_type).toBe('application/json');
    expect(result.text).toBe('{\n  "big": 9007199254740993,\n  "list": [\n    1,\n    2\n  ]\n}');
    expect((await fetchPath('/bad-json')).text).toBe('{"cut": ');
  });

  it('returns other text as-is and replaces invalid UTF-8', async () => {
    expect((await fetchPath('/notes')).text).toBe('# Notes\n\n* keep  as-is\n');
    expect((await fetchPath('/invalid-utf8')).text).toBe('ok\ufffd(!');
    expect((await fetchPath('/gzip')).text).toBe('compressed text');
  });

  it('sniffs untyped bodies', async () => {
    expect(await fetchPath('/untyped-html')).toMatchObject({ content_type: 'text/html', text: 'sniffed' });
  });

  it('refuses binary content with unsupported_content_type', async () => {
    const image = await rejectionOf(fetchPath('/image'));
    expect(image.code).toBe('unsupported_content_type');
    expect(image.message).toContain('returned image/png');
    expect((await rejectionOf(fetchPath('/untyped-binary'))).code).toBe('unsupported_content_type');
  });

  it('reports HTTP errors the way Fermix does', async () => {
    const error = await rejectionOf(fetchPath('/missing'));
    expect(error.code).toBe('network');
    expect(error.message).toBe(`network: HTTP 404 from ${server.origin}/missing.`);
    expect(error.data).toMatchObject({ status: 404 });
  });

  it('truncates bodies past 1,048,576 bytes and says so', async () => {
    const result = await fetchPath('/huge');
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBe(1_048_576);
  });

  it('follows redirects and reports the final URL', async () => {
    const result = await fetchPath('/moved');
    expect(result.url).toBe(`${server.origin}/moved`);
    expect(result.final_url).toBe(`${server.origin}/page`);
  });

  it('refuses a redirect to the metadata address, and private URLs under the default policy', async () => {
    expect((await rejectionOf(fetchPath('/to-metadata'))).code).toBe('blocked_url');
    expect((await rejectionOf(webFetch({ url: `${server.origin}/page` }))).code).toBe('blocked_url');
  });
});
