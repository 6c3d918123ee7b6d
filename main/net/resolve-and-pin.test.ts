import { describe, expect, it } from 'vitest';
import { FermixError } from '../core/errors.js';
import { pinnedLookup, resolveAndPin, systemResolver, type HostResolver, type ResolvedAddress } from './resolve-and-pin.js';
import { createTestPolicy } from './test-policy.js';
import { DEFAULT_NET_POLICY } from './url-policy.js';

function resolverFrom(table: Record<string, ResolvedAddress[]>, calls: string[] = []): HostResolver {
  return async (hostname) => {
    calls.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
}

async function rejection(promise: Promise<unknown>): Promise<FermixError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FermixError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

describe('resolveAndPin', () => {
  it('pins the first address of a public name and keeps the original name for Host/SNI', async () => {
    const calls: string[] = [];
    const resolver = resolverFrom({ 'public.test': [v4('93.184.216.34'), v6('2606:2800:220:1::1')] }, calls);
    const target = await resolveAndPin(new URL('https://public.test./path'), DEFAULT_NET_POLICY, resolver);
    expect(target).toMatchObject({ hostname: 'public.test', address: '93.184.216.34', family: 4 });
    expect(calls).toEqual(['public.test']);
  });

  it('refuses when ANY resolved address is blocked, naming it', async () => {
    const resolver = resolverFrom({ 'mixed.test': [v4('93.184.216.34'), v4('10.0.0.5')] });
    const error = await rejection(resolveAndPin(new URL('http://mixed.test/'), DEFAULT_NET_POLICY, resolver));
    expect(error.code).toBe('blocked_url');
    expect(error.message).toContain('mixed.test resolves to a private address 10.0.0.5 (10.0.0.0/8)');
    expect(error.data).toMatchObject({ host: 'mixed.test', address: '10.0.0.5' });
  });

  it('refuses names resolving to v4-mapped, NAT64 and metadata addresses', async () => {
    const resolver = resolverFrom({
      'mapped.test': [v6('::ffff:7f00:1')],
      'nat64.test': [v6('64:ff9b::a9fe:a9fe')],
      'imds.test': [v6('fd00:ec2::254')],
    });
    for (const host of ['mapped.test', 'nat64.test', 'imds.test']) {
      const error = await rejection(resolveAndPin(new URL(`http://${host}/`), DEFAULT_NET_POLICY, resolver));
      expect(error.code).toBe('blocked_url');
    }
  });

  it('under the test policy, opens loopback answers but still refuses private ones', async () => {
    const resolver = resolverFrom({ 'loop.test': [v4('127.0.0.1')], 'lan.test': [v4('127.0.0.1'), v4('192.168.0.10')] });
    const policy = createTestPolicy();
    expect((await resolveAndPin(new URL('http://loop.test/'), policy, resolver)).address).toBe('127.0.0.1');
    expect((await rejection(resolveAndPin(new URL('http://lan.test/'), policy, resolver))).code).toBe('blocked_url');
  });

  it('connects IP literals directly without asking the resolver', async () => {
    const calls: string[] = [];
    const target = await resolveAndPin(new URL('http://[2606:4700::1111]:8080/'), DEFAULT_NET_POLICY, resolverFrom({}, calls));
    expect(target).toMatchObject({ hostname: '2606:4700::1111', address: '2606:4700::1111', family: 6 });
    expect(calls).toEqual([]);
  });

  it('reports resolution failures and empty answers as network errors with dns_resolution_failed', async () => {
    const missing = await rejection(resolveAndPin(new URL('http://nowhere.test/'), DEFAULT_NET_POLICY, resolverFrom({})));
    expect(missing.code).toBe('network');
    expect(missing.message).toBe('Could not resolve nowhere.test (ENOTFOUND).');
    expect(missing.data).toMatchObject({ reason: 'dns_resolution_failed' });
    const empty = await rejection(resolveAndPin(new URL('http://empty.test/'), DEFAULT_NET_POLICY, resolverFrom({ 'empty.test': [] })));
    expect(empty.data).toMatchObject({ reason: 'dns_resolution_failed' });
  });

  it('the system resolver returns every address with its family', async () => {
    const addresses = await systemResolver('127.0.0.1');
    expect(addresses).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });
});

describe('pinnedLookup', () => {
  const target = { url: new URL('https://pinned.test/'), hostname: 'pinned.test', address: '127.0.0.1', family: 4 as const };

  it('answers the single-address form', async () => {
    const answer = await new Promise((resolve) => pinnedLookup(target)('pinned.test', {}, (...args) => resolve(args)));
    expect(answer).toEqual([null, '127.0.0.1', 4]);
  });

  it('answers the all-addresses form used by autoSelectFamily', async () => {
    const answer = await new Promise((resolve) => pinnedLookup(target)('pinned.test', { all: true }, (...args) => resolve(args)));
    expect(answer).toEqual([null, [{ address: '127.0.0.1', family: 4 }]]);
  });

  it('refuses to answer for any other name', async () => {
    const [error] = await new Promise<unknown[]>((resolve) => pinnedLookup(target)('other.test', {}, (...args) => resolve(args)));
    expect((error as { code: string }).code).toBe('ENOTFOUND');
  });
});
