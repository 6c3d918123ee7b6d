import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedFetch, NET_DEFAULTS } from './guarded-fetch.js';
import type { HostResolver } from './resolve-and-pin.js';
import { createTestPolicy } from './test-policy.js';
import { rejectionOf, startHttpServer, type LocalServer } from './test-support.js';

const policy = createTestPolicy();
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function server(handler: Parameters<typeof startHttpServer>[0]): Promise<LocalServer> {
  const started = await startHttpServer(handler);
  cleanups.push(() => started.close());
  return started;
}

/** Writes 64 KiB chunks until the client goes away: a body with no end, so only a streaming cap can stop it. */
const endless = () => server((_request, response) => {
  const chunk = Buffer.alloc(65_536, 'a');
  const pump = () => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', pump);
  };
  pump();
});

describe('guardedFetch: body cap', () => {
  it('defaults to web_fetch numbers', () => {
    expect(NET_DEFAULTS).toEqual({ maxBytes: 1_048_576, maxRedirects: 5, connectTimeoutMs: 3_000, receiveTimeoutMs: 15_000 });
  });

  it('refuses an endless body with body_too_large while streaming', async () => {
    const local = await endless();
    const error = await rejectionOf(guardedFetch(`${local.origin}/`, { policy }));
    expect(error.code).toBe('body_too_large');
    expect(error.message).toBe('The response body exceeded 1048576 bytes.');
  });

  it('truncates an endless body to exactly maxBytes when asked to', async () => {
    const local = await endless();
    const result = await guardedFetch(`${local.origin}/`, { policy, maxBytes: 100_000, onTooLarge: 'truncate' });
    expect(result.truncated).toBe(true);
    expect(result.body.length).toBe(100_000);
  });

  it('refuses up front when Content-Length already exceeds the cap', async () => {
    const local = await server((_request, response) => {
      response.writeHead(200, { 'content-length': String(5_000_000) });
      response.write('x'); // never finishes: only the header check can answer quickly
    });
    const error = await rejectionOf(guardedFetch(`${local.origin}/`, { policy }));
    expect(error.code).toBe('body_too_large');
    expect(error.data).toMatchObject({ content_length: 5_000_000 });
  });

  it('keeps a body of exactly maxBytes whole', async () => {
    const local = await server((_request, response) => response.end(Buffer.alloc(1000, 'b')));
    const result = await guardedFetch(`${local.origin}/`, { policy, maxBytes: 1000 });
    expect(result).toMatchObject({ truncated: false });
    expect(result.body.length).toBe(1000);
  });

  it('counts decoded bytes: a gzip bomb stops at the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * 1_048_576));
    expect(bomb.length).toBeLessThan(100_000);
    const local = await server((_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb);
    });
    expect((await rejectionOf(guardedFetch(`${local.origin}/`, { policy }))).code).toBe('body_too_large');
    const truncated = await guardedFetch(`${local.origin}/`, { policy, onTooLarge: 'truncate' });
    expect(truncated.body.length).toBe(NET_DEFAULTS.maxBytes);
    expect(truncated.truncated).toBe(true);
  });

  it('decodes gzip and brotli bodies, and refuses corrupt or unknown encodings as network', async () => {
    const local = await server((request, response) => {
      if (request.url === '/gzip') response.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('zipped'));
      else if (request.url === '/br') response.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli'));
      else if (request.url === '/corrupt') response.writeHead(200, { 'content-encoding': 'gzip' }).end('not gzip at all');
      else response.writeHead(200, { 'content-encoding': 'zstd-ish' }).end('x');
    });
    expect((await guardedFetch(`${local.origin}/gzip`, { policy })).body.toString()).toBe('zipped');
    expect((await guardedFetch(`${local.origin}/br`, { policy })).body.toString()).toBe('brotli');
    expect((await rejectionOf(guardedFetch(`${local.origin}/corrupt`, { policy }))).code).toBe('network');
    const unknown = await rejectionOf(guardedFetch(`${local.origin}/unknown`, { policy }));
    expect(unknown.code).toBe('network');
    expect(unknown.message).toContain('zstd-ish');
  });
});

describe('guardedFetch: timeouts and cancellation', () => {
  it('times out when the server never answers', async () => {
    const local = await server(() => undefined);
    const error = await rejectionOf(guardedFetch(`${local.origin}/`, { policy, receiveTimeoutMs: 200 }));
    expect(error.code).toBe('timeout');
    expect(error.data).toMatchObject({ phase: 'receive', timeout_ms: 200 });
  });

  it('treats receive time as a deadline: a server dripping bytes cannot keep the call open', async () => {
    const local = await server((_request, response) => {
      response.writeHead(200);
      const drip = setInterval(() => (response.destroyed ? clearInterval(drip) : response.write('.')), 20);
    });
    const started = Date.now();
    const error = await rejectionOf(guardedFetch(`${local.origin}/`, { policy, receiveTimeoutMs: 300 }));
    expect(error.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out connecting when the TLS handshake never completes', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => {
      sockets.forEach((socket) => socket.destroy());
      silent.close(() => resolve());
    }));
    const { port } = silent.address() as AddressInfo;
    const error = await rejectionOf(guardedFetch(`https://127.0.0.1:${port}/`, { policy, connectTimeoutMs: 200 }));
    expect(error.code).toBe('timeout');
    expect(error.data).toMatchObject({ phase: 'connect', timeout_ms: 200 });
  });

  it('times out when DNS never answers', async () => {
    const lookup: HostResolver = () => new Promise(() => undefined);
    const error = await rejectionOf(guardedFetch('http://slow-dns.test/', { lookup, connectTimeoutMs: 150 }));
    expect(error.code).toBe('timeout');
    expect(error.data).toMatchObject({ phase: 'dns' });
  });

  it('cancels on abort: before the call, during DNS, and mid-response', async () => {
    const local = await server(() => undefined);
    expect((await rejectionOf(guardedFetch(`${local.origin}/`, { policy, signal: AbortSignal.abort() }))).code).toBe('cancelled');

    const duringDns = new AbortController();
    const lookup: HostResolver = () => new Promise(() => undefined);
    const dnsCall = guardedFetch('http://hang.test/', { lookup, signal: duringDns.signal });
    setTimeout(() => duringDns.abort(), 50);
    expect((await rejectionOf(dnsCall)).code).toBe('cancelled');

    const midway = new AbortController();
    const call = guardedFetch(`${local.origin}/`, { policy, signal: midway.signal });
    setTimeout(() => midway.abort(), 100);
    expect((await rejectionOf(call)).code).toBe('cancelled');
  });
});
