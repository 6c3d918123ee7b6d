import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from './guarded-fetch.js';
import type { HostResolver, ResolvedAddress } from './resolve-and-pin.js';
import { createTestPolicy } from './test-policy.js';
import { rejectionOf, startHttpServer, type LocalServer } from './test-support.js';

/**
 * Hostile inputs, each of which must end in `blocked_url` before any byte reaches the target.
 * LOOPBACK_FORMS are opened by the test policy (so they are checked under the default policy only);
 * everything else must stay blocked even under the test policy.
 */
const LOOPBACK_FORMS = [
  'http://127.0.0.1/', 'http://127.0.0.1:8080/admin', 'http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.1/',
  'http://0x7f000001/', 'http://017700000001/', 'http://127.1/', 'http://127.0.1/', 'http://0x7f.0x0.0x0.0x1/',
  'http://127.000.000.001/', 'http://127.0.0.1./', 'http://127。0。0。1/', 'http://１２７.０.０.１/', 'http://①②⑦.0.0.1/',
  'http://%31%32%37.0.0.1/', 'http://[::1]/', 'https://[::1]:443/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]:80/', 'http://[::127.0.0.1]/', 'http://[::ffff:0:127.0.0.1]/', 'http://[64:ff9b::127.0.0.1]/',
  'http://[2002:7f00:1::]/',
  // Userinfo/fragment tricks whose real host is loopback.
  'http://127.0.0.1#@evil.com', 'http://127.0.0.1\\@evil.com/', 'http://127.0.0.1?@evil.com/',
];

const ALWAYS_BLOCKED = [
  // "This network", unspecified: on Linux, connecting to 0.0.0.0 reaches local services.
  'http://0/', 'http://0.0.0.0:8080/', 'http://0:8080/', 'http://[::]/',
  // Private, CGNAT, link-local, multicast, reserved, broadcast — in several notations.
  'http://10.0.0.1/', 'http://012.0.0.1/', 'http://167772161/', 'http://0xa.0.0.1/', 'http://172.16.0.1/',
  'http://172.31.255.254/', 'http://192.168.0.1/', 'http://0xc0a80001/', 'http://192.168.1.1:22/', 'http://100.64.0.1/',
  'http://[fc00::1]/', 'http://[fd12:3456::1]/', 'http://[fe80::1]/', 'http://[::ffff:10.0.0.1]/', 'http://[::ffff:a00:1]/',
  'http://[64:ff9b::10.0.0.1]/', 'http://[64:ff9b:1::a00:1]/', 'http://224.0.0.1/', 'http://239.255.255.250:1900/',
  'http://240.0.0.1/', 'http://255.255.255.255/', 'http://[ff02::1]/',
  // Cloud metadata.
  'http://169.254.169.254/latest/meta-data/', 'http://2852039166/', 'http://0xa9.0xfe.0xa9.0xfe/',
  'http://0251.0376.0251.0376/', 'http://0xa9fea9fe/', 'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/', 'http://[64:ff9b::a9fe:a9fe]/', 'http://metadata.google.internal/computeMetadata/v1/',
  // Credentials: refused whatever the host, so the reader's idea of the host never matters.
  'http://evil.com@127.0.0.1/', 'http://127.0.0.1:80@evil.com/', 'http://evil.com:pass@10.0.0.1/',
  'https://127.0.0.1%23@evil.com', 'http://127.0.0.1%2f@evil.com/',
  // Reserved names, trailing dots, case and full-width folding.
  'http://localhost/', 'http://LOCALHOST/', 'http://localhost./', 'http://localhost../', 'http://ｌｏｃａｌｈｏｓｔ/',
  'http://localhost:3000/', 'http://foo.localhost/', 'http://printer.local/', 'http://db.internal./',
  // Schemes that speak to local services.
  'file:///etc/passwd', 'gopher://127.0.0.1:6379/_', 'dict://127.0.0.1:11211/', 'ftp://10.0.0.1/',
  // Whitespace smuggling the WHATWG parser would silently strip.
  'http://127.0.0.1\t/', ' http://10.0.0.1/',
];

/** Host names an attacker controls the DNS of. Anything else fails to resolve: no real DNS in this test. */
const DNS: Record<string, ResolvedAddress[]> = {
  'rebind.test': [{ address: '10.0.0.1', family: 4 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'v6-metadata.test': [{ address: 'fd00:ec2::254', family: 6 }],
  'mapped.test': [{ address: '::ffff:a9fe:a9fe', family: 6 }],
  'nat64.test': [{ address: '64:ff9b::a00:1', family: 6 }],
  'mixed.test': [{ address: '93.184.216.34', family: 4 }, { address: '192.168.1.1', family: 4 }],
  'zero.test': [{ address: '0.0.0.0', family: 4 }],
  'ula.test': [{ address: 'fd00::1', family: 6 }],
  'loop.test': [{ address: '127.0.0.1', family: 4 }],
};
const lookup: HostResolver = async (hostname) => {
  const found = DNS[hostname];
  if (!found) throw Object.assign(new Error(`no test record for ${hostname}`), { code: 'ENOTFOUND' });
  return found;
};
const DNS_URLS = ['http://rebind.test/', 'http://rebind.test./', 'https://metadata.test/latest/meta-data/',
  'http://v6-metadata.test/', 'http://mapped.test/', 'http://nat64.test/', 'http://mixed.test/', 'http://zero.test/',
  'http://ula.test/', 'http://loop.test/'];

const refusedUrls = new Set<string>();
let refusals = 0;
const testPolicy = createTestPolicy();
// A tight connect timeout: if the guard ever let one through, the test fails fast with `timeout`, not a hang.
const quick = { lookup, connectTimeoutMs: 300, receiveTimeoutMs: 300 };

async function expectBlocked(url: string, options: Parameters<typeof guardedFetch>[1], hostile = url): Promise<void> {
  const error = await rejectionOf(guardedFetch(url, options));
  expect(error.code, `${url}: ${error.message}`).toBe('blocked_url');
  expect(error.hint).not.toBe('');
  refusedUrls.add(hostile);
  refusals += 1;
}

describe('SSRF corpus', () => {
  afterAll(() => {
    console.log(`SSRF corpus: ${refusedUrls.size} URLs refused (${refusals} refusals across the default and test policies)`);
  });

  it.each([...LOOPBACK_FORMS, ...ALWAYS_BLOCKED])('default policy refuses %s', async (url) => {
    await expectBlocked(url, quick);
  });

  it.each(ALWAYS_BLOCKED)('test policy still refuses %s', async (url) => {
    await expectBlocked(url, { ...quick, policy: testPolicy });
  });

  it.each(DNS_URLS)('refuses %s by what it resolves to', async (url) => {
    await expectBlocked(url, quick);
  });

  it.each(DNS_URLS.filter((url) => !url.includes('loop.test')))('test policy still refuses %s by resolution', async (url) => {
    await expectBlocked(url, { ...quick, policy: testPolicy });
  });
});

describe('SSRF corpus: redirects from an allowed server', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startHttpServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      if (url.pathname === '/to') response.writeHead(302, { location: url.searchParams.get('u') ?? '/' }).end();
      else if (url.pathname === '/hop1') response.writeHead(301, { location: '/hop2' }).end();
      else if (url.pathname === '/hop2') response.writeHead(307, { location: 'http://192.168.1.1/admin' }).end();
      else response.end('reached');
    });
  });
  afterAll(() => server.close());

  const targets = (port: number) => [
    'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/iam/', 'http://[fd00:ec2::254]/', 'http://0xa9fea9fe/',
    'http://[::ffff:10.0.0.1]/', 'http://100.64.0.1/', 'http://localhost/', 'http://rebind.test/', 'http://mixed.test/',
    // 0.0.0.0 really reaches this very server on Linux; only the guard stands in the way.
    `http://0.0.0.0:${port}/`, `http://0:${port}/`, `http://[::]:${port}/`,
    `http://user:pw@127.0.0.1:${port}/`, 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_',
  ];

  it('refuses every private or metadata Location, and the target never sees a request', async () => {
    for (const target of targets(server.port)) {
      const before = server.requests.length;
      await expectBlocked(`${server.origin}/to?u=${encodeURIComponent(target)}`, { ...quick, policy: testPolicy }, `redirect → ${target}`);
      // Exactly one request (the redirecting hop) reached the server: not the 0.0.0.0 follow-up.
      expect(server.requests.length - before, target).toBe(1);
    }
  });

  it('refuses a private address at the end of a multi-hop chain', async () => {
    await expectBlocked(`${server.origin}/hop1`, { ...quick, policy: testPolicy }, 'redirect chain → 192.168.1.1');
    // And the chain's first hops really were followed, so the refusal came from re-validating hop 3.
    expect(server.requests.slice(-2).map((r) => r.path)).toEqual(['/hop1', '/hop2']);
  });

  it('the allowed server itself is reachable under the test policy (the refusals above are not a dead server)', async () => {
    const result = await guardedFetch(`${server.origin}/to?u=${encodeURIComponent('/ok')}`, { ...quick, policy: testPolicy });
    expect(result.body.toString()).toBe('reached');
  });

  it('counts at least 40 refused URLs', () => {
    expect(refusedUrls.size).toBeGreaterThanOrEqual(40);
  });
});
