import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from './guarded-fetch.js';
import type { HostResolver } from './resolve-and-pin.js';
import { createTestPolicy } from './test-policy.js';
import { makeTestCertificates, rejectionOf, startHttpsServer, type LocalServer, type TestCertificates } from './test-support.js';

/**
 * Resolve-and-pin over TLS: the socket goes to the pinned 127.0.0.1, while SNI, Host and the certificate
 * check all use the original name `pinned.test`, verified against a CA made for this test run.
 */
describe('HTTPS through a pinned address', () => {
  let certs: TestCertificates;
  let server: LocalServer;
  const policy = createTestPolicy();
  const resolved: string[] = [];
  const lookup: HostResolver = async (hostname) => {
    resolved.push(hostname);
    return [{ address: '127.0.0.1', family: 4 }];
  };

  beforeAll(async () => {
    certs = await makeTestCertificates('pinned.test');
    server = await startHttpsServer({ key: certs.key, cert: certs.cert }, (_request, response) => response.end('secure hello'));
  });
  afterAll(async () => {
    await server?.close();
    await certs?.cleanup();
  });

  it('sends SNI and Host as the original name and verifies the certificate against the supplied CA', async () => {
    resolved.length = 0;
    const result = await guardedFetch(`https://pinned.test:${server.port}/hello`, { policy, lookup, ca: certs.ca });
    expect(result.status).toBe(200);
    expect(result.body.toString()).toBe('secure hello');
    expect(result.url).toBe(`https://pinned.test:${server.port}/hello`);
    const seen = server.requests.at(-1);
    expect(seen?.servername).toBe('pinned.test');
    expect(seen?.headers.host).toBe(`pinned.test:${server.port}`);
    expect(resolved).toEqual(['pinned.test']);
  });

  it('refuses the connection when the CA is not trusted (no silent insecure fallback)', async () => {
    const error = await rejectionOf(guardedFetch(`https://pinned.test:${server.port}/`, { policy, lookup }));
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/TLS certificate of pinned\.test could not be verified/u);
  });

  it('refuses a name the certificate does not cover, even when it pins to the same address', async () => {
    const error = await rejectionOf(guardedFetch(`https://other.test:${server.port}/`, { policy, lookup, ca: certs.ca }));
    expect(error.code).toBe('network');
    expect(error.data).toMatchObject({ error_code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });

  it('blocks pinned.test under the default policy, because it resolves to loopback', async () => {
    const before = server.requests.length;
    const error = await rejectionOf(guardedFetch(`https://pinned.test:${server.port}/`, { lookup, ca: certs.ca }));
    expect(error.code).toBe('blocked_url');
    expect(error.message).toContain('pinned.test resolves to a loopback address 127.0.0.1');
    expect(server.requests.length).toBe(before);
  });
});
