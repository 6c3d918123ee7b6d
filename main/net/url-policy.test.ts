import { describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { createTestPolicy } from './test-policy.js';
import { bareHostname, checkUrl, DEFAULT_NET_POLICY, type NetPolicy } from './url-policy.js';

function refusal(url: string, policy?: NetPolicy): FermixError {
  try {
    checkUrl(url, policy);
  } catch (error) {
    if (error instanceof FermixError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(url)} to be refused`);
}

describe('checkUrl', () => {
  it('accepts public http and https URLs and returns the parsed URL', () => {
    expect(checkUrl('https://example.com/a?b=c').href).toBe('https://example.com/a?b=c');
    expect(checkUrl('http://93.184.216.34:8080/').hostname).toBe('93.184.216.34');
    expect(checkUrl('http://[2606:4700:4700::1111]/').hostname).toBe('[2606:4700:4700::1111]');
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,hi', 'ws://example.com/',
    'gopher://example.com/', 'mailto:a@example.com'])('refuses the scheme of %s', (url) => {
    const error = refusal(url);
    expect(error.code).toBe('blocked_url');
    expect(error.message).toMatch(/only http and https are allowed/u);
    expect(error.hint).toMatch(/web_fetch/u);
  });

  it.each(['http://user:pass@example.com/', 'http://user@example.com/', 'http://:pw@example.com/',
    'http://evil.com@127.0.0.1/'])('refuses credentials in %s', (url) => {
    expect(refusal(url).message).toMatch(/credentials/u);
  });

  it.each(['', ' http://example.com', 'http://example.com/\n', 'http://exa\tmple.com/', 'http://example.com/\u0000'])(
    'refuses empty, whitespace and control characters: %j', (url) => {
      expect(refusal(url).code).toBe('blocked_url');
    });

  it.each(['not a url', '/relative/path', 'http://', 'http://1.2.3.4.5/', 'http://[fe80::1%25eth0]/'])(
    'refuses what the WHATWG parser rejects: %s', (url) => {
      expect(refusal(url).message).toMatch(/not a valid absolute URL|whitespace/u);
    });

  it.each(['http://localhost/', 'http://LOCALHOST:8080/', 'http://localhost./', 'http://a.localhost/',
    'http://printer.local/', 'http://metadata.google.internal/', 'http://foo.localhost../'])(
    'refuses local host names: %s', (url) => {
      expect(refusal(url).message).toMatch(/reserved for local networks/u);
    });

  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0xa.0.0.1/', '10.0.0.1'],
    ['http://[::ffff:7f00:1]/', '127.0.0.1'],
  ])('normalises %s before classifying it as %s', (url, address) => {
    expect(refusal(url).message).toContain(address);
  });

  it('names the reason and address in the message and data', () => {
    const error = refusal('http://10.0.0.5/x');
    expect(error.message).toBe('http://10.0.0.5/x is blocked: it is a private address 10.0.0.5 (10.0.0.0/8).');
    expect(error.data).toMatchObject({ address: '10.0.0.5' });
  });

  it('lets the minted test policy reach loopback only', () => {
    const policy = createTestPolicy();
    expect(checkUrl('http://127.0.0.1:1234/', policy).port).toBe('1234');
    expect(checkUrl('http://[::1]/', policy).hostname).toBe('[::1]');
    expect(refusal('http://10.0.0.1/', policy).code).toBe('blocked_url');
    expect(refusal('http://0.0.0.0/', policy).code).toBe('blocked_url');
    expect(refusal('http://169.254.169.254/', policy).code).toBe('blocked_url');
    expect(refusal('http://localhost/', policy).code).toBe('blocked_url');
  });

  it('ignores a forged policy object that was not minted by test-policy.ts', () => {
    const forged = JSON.parse('{"allowLoopbackForTests": true}') as NetPolicy;
    expect(refusal('http://127.0.0.1/', forged).message).toMatch(/loopback/u);
    expect(refusal('http://127.0.0.1/', DEFAULT_NET_POLICY).message).toMatch(/loopback/u);
  });

  it('strips brackets and trailing dots for the blocklist', () => {
    expect(bareHostname(new URL('http://[::1]/'))).toBe('::1');
    expect(bareHostname(new URL('http://example.com../'))).toBe('example.com');
  });
});
