import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { lazyBuiltin } from '../daemon/lazy-builtin.js';
import { classifyAddress } from './address-policy.js';
import { blockedUrl, netError } from './net-errors.js';
import { addressRefusal, bareHostname, type NetPolicy } from './url-policy.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has. Injectable so tests can map rebind.test → 10.0.0.1. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

// node:dns/promises loads with the first name to resolve.
const dns = lazyBuiltin<typeof import('node:dns/promises')>('node:dns/promises');

export const systemResolver: HostResolver = async (hostname) => {
  const results = await dns().lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};

/** Where one request will connect, decided once. */
export interface PinnedTarget {
  url: URL;
  /** The name for the Host header, TLS SNI and certificate check (no brackets, as the URL spelled it). */
  hostname: string;
  /** The literal IP the socket connects to. */
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the URL's host once and refuses if ANY address is blocked (a name with one public and one
 * private record is an SSRF attempt, and getaddrinfo's order is not ours to trust). The caller connects to
 * the returned literal address, so a DNS answer that changes between check and connect (rebinding) cannot
 * redirect the socket. Assumes checkUrl already passed.
 */
export async function resolveAndPin(url: URL, policy: NetPolicy, resolver: HostResolver): Promise<PinnedTarget> {
  const hostname = bareHostname(url);
  const literalFamily = isIP(hostname);
  if (literalFamily !== 0) {
    return { url, hostname, address: hostname, family: literalFamily === 6 ? 6 : 4 };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(hostname);
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unknown error';
    throw netError(
      'network',
      `Could not resolve ${hostname} (${code}).`,
      'Check the spelling of the host name and that this machine is online (`fermix doctor` checks connectivity).',
      { reason: 'dns_resolution_failed', host: hostname, dns_code: code },
      error,
    );
  }
  if (addresses.length === 0) {
    throw netError('network', `${hostname} has no addresses.`, 'Check the host name.', {
      reason: 'dns_resolution_failed',
      host: hostname,
    });
  }
  for (const resolved of addresses) {
    const reason = addressRefusal(classifyAddress(resolved.address), policy);
    if (reason) {
      throw blockedUrl(url.href, `${hostname} resolves to ${reason}`, { host: hostname, address: resolved.address });
    }
  }
  const first = addresses[0];
  return { url, hostname, address: first.address, family: first.family };
}

/**
 * A `lookup` for node:net that answers only with the pinned address. node:http calls it with the URL's
 * host name (so Host and SNI stay the original name) and, on Node 20 where autoSelectFamily is on,
 * with `{ all: true }`, which wants an array back.
 */
export function pinnedLookup(target: PinnedTarget): LookupFunction {
  return (hostname, options, callback) => {
    if (hostname !== target.hostname) {
      const error = Object.assign(new Error(`pinned lookup asked for ${hostname}, pinned ${target.hostname}`), {
        code: 'ENOTFOUND',
      });
      callback(error, '', 4);
      return;
    }
    if ((options as { all?: boolean }).all === true) {
      (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
      return;
    }
    callback(null, target.address, target.family);
  };
}
