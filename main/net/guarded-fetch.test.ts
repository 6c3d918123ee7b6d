import { afterEach, describe, expect, it } from 'vitest';
import { guardedFetch } from './guarded-fetch.js';
import type { HostResolver } from './resolve-and-pin.js';
import { createTestPolicy } from './test-policy.js';
import { rejectionOf, startHttpServer, type LocalServer } from './test-support.js';
import type { NetPolicy } from './url-policy.js';

const policy = createTestPolicy();
const servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(handler: Parameters<typeof startHttpServer>[0]): Promise<LocalServer> {
  const started = await startHttpServer(handler);
  servers.push(started);
  return started;
}

const hello = () => server((_request, response) => response.end('hello'));

describe('guardedFetch: the default policy', () => {
  it('blocks 127.0.0.1 even when a server is listening there, and sends it nothing', async () => {
    const local = await hello();
    // Prove the server is really reachable, so the refusal below is the guard's and not a dead port's.
    expect((await guardedFetch(`${local.origin}/`, { policy })).body.toString()).toBe('hello');
    const before = local.requests.length;
    const error = await rejectionOf(guardedFetch(`${local.origin}/`));
    expect(error.code).toBe('blocked_url');
    expect(error.message).toContain('a loopback address 127.0.0.1 (127.0.0.0/8)');
    expect(local.requests.length).toBe(before);
  });

  it('blocks loopback for a structurally identical policy that test-policy.ts did not mint', async () => {
    const local = await hello();
    const forged: NetPolicy = { allowLoopbackForTests: true };
    expect((await rejectionOf(guardedFetch(`${local.origin}/`, { policy: forged }))).code).toBe('blocked_url');
    expect(local.requests).toHaveLength(0);
  });

  it('blocks a name that resolves to loopback', async () => {
    const local = await hello();
    const lookup: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const error = await rejectionOf(guardedFetch(`http://site.test:${local.port}/`, { lookup }));
    expect(error.message).toContain('site.test resolves to a loopback address 127.0.0.1');
    expect(local.requests).toHaveLength(0);
  });
});

describe('guardedFetch: requests', () => {
  it('returns status, headers, final url and body, sending Host and a User-Agent', async () => {
    const local = await server((_request, response) => {
      response.setHeader('x-test', 'yes');
      response.statusCode = 201;
      response.end('created');
    });
    const result = await guardedFetch(`${local.origin}/p?q=1`, { policy, headers: { Host: 'evil.test', 'X-Custom': 'v' } });
    expect(result).toMatchObject({ status: 201, url: `${local.origin}/p?q=1`, truncated: false });
    expect(result.headers['x-test']).toBe('yes');
    expect(result.body.toString()).toBe('created');
    const seen = local.requests[0];
    expect(seen.path).toBe('/p?q=1');
    expect(seen.headers.host).toBe(`127.0.0.1:${local.port}`);
    expect(seen.headers['x-custom']).toBe('v');
    expect(seen.headers['user-agent']).toBe('fermix-desktop');
  });

  it('sends a method and body', async () => {
    let received = '';
    const local = await server((request, response) => {
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (received += chunk));
      request.on('end', () => response.end('ok'));
    });
    await guardedFetch(`${local.origin}/`, { policy, method: 'post', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(local.requests[0].method).toBe('POST');
    expect(received).toBe('{"a":1}');
  });

  it('connects to the pinned address once: a resolver that would rebind later is never asked again', async () => {
    const local = await hello();
    const answers = [[{ address: '127.0.0.1', family: 4 as const }], [{ address: '10.0.0.1', family: 4 as const }]];
    let calls = 0;
    const lookup: HostResolver = async () => answers[Math.min(calls++, 1)];
    const result = await guardedFetch(`http://rebind.test:${local.port}/`, { policy, lookup });
    expect(result.body.toString()).toBe('hello');
    expect(calls).toBe(1);
    expect(local.requests[0].headers.host).toBe(`rebind.test:${local.port}`);
  });

  it('reports a refused connection as network', async () => {
    const local = await hello();
    const port = local.port;
    await local.close();
    servers.length = 0;
    const error = await rejectionOf(guardedFetch(`http://127.0.0.1:${port}/`, { policy }));
    expect(error.code).toBe('network');
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('guardedFetch: redirects', () => {
  it('follows relative and absolute redirects by hand and reports the final URL', async () => {
    const target = await server((_request, response) => response.end('final'));
    const local = await server((request, response) => {
      if (request.url === '/start') response.writeHead(302, { location: '/middle' }).end();
      else response.writeHead(301, { location: `${target.origin}/end` }).end('moved');
    });
    const result = await guardedFetch(`${local.origin}/start`, { policy });
    expect(result).toMatchObject({ status: 200, url: `${target.origin}/end` });
    expect(result.body.toString()).toBe('final');
    expect(local.requests.map((r) => r.path)).toEqual(['/start', '/middle']);
  });

  it('turns POST into GET on 303, keeps it on 307', async () => {
    const local = await server((request, response) => {
      if (request.url === '/see-other') response.writeHead(303, { location: '/done' }).end();
      else if (request.url === '/temporary') response.writeHead(307, { location: '/done' }).end();
      else request.resume().on('end', () => response.end(request.method));
    });
    expect((await guardedFetch(`${local.origin}/see-other`, { policy, method: 'POST', body: 'x' })).body.toString()).toBe('GET');
    expect((await guardedFetch(`${local.origin}/temporary`, { policy, method: 'POST', body: 'x' })).body.toString()).toBe('POST');
  });

  it('drops credentials when a redirect crosses to another origin, keeps them on the same origin', async () => {
    const other = await server((_request, response) => response.end('other'));
    const local = await server((request, response) => {
      if (request.url === '/same') response.writeHead(302, { location: '/same-done' }).end();
      else if (request.url === '/cross') response.writeHead(302, { location: `${other.origin}/x` }).end();
      else response.end('ok');
    });
    const headers = { authorization: 'Bearer secret', cookie: 'session=1', 'x-api-key': 'k' };
    await guardedFetch(`${local.origin}/same`, { policy, headers });
    expect(local.requests[1].headers.authorization).toBe('Bearer secret');
    await guardedFetch(`${local.origin}/cross`, { policy, headers });
    expect(other.requests[0].headers.authorization).toBeUndefined();
    expect(other.requests[0].headers.cookie).toBeUndefined();
    expect(other.requests[0].headers['x-api-key']).toBeUndefined();
  });

  it('follows at most 5 redirects: 5 succeed, the 6th is redirect_limit', async () => {
    const local = await server((request, response) => {
      const step = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('n'));
      const stop = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('stop'));
      if (step < stop) response.writeHead(302, { location: `/?n=${step + 1}&stop=${stop}` }).end();
      else response.end(`done at ${step}`);
    });
    expect((await guardedFetch(`${local.origin}/?n=0&stop=5`, { policy })).body.toString()).toBe('done at 5');
    const error = await rejectionOf(guardedFetch(`${local.origin}/?n=0&stop=6`, { policy }));
    expect(error.code).toBe('redirect_limit');
    expect(error.message).toBe(`Stopped after 5 redirects (the next one pointed to ${local.origin}/?n=6&stop=6).`);
    expect((await rejectionOf(guardedFetch(`${local.origin}/?n=0&stop=1`, { policy, maxRedirects: 0 }))).code).toBe('redirect_limit');
  });

  it('returns a redirect status without Location as an ordinary response', async () => {
    const local = await server((_request, response) => response.writeHead(302).end('no location'));
    const result = await guardedFetch(`${local.origin}/`, { policy });
    expect(result.status).toBe(302);
    expect(result.body.toString()).toBe('no location');
  });
});
