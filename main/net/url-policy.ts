import { blockedUrl } from './net-errors.js';
import { classifyAddress, isIpLiteral, type AddressVerdict } from './address-policy.js';
import { isMintedTestPolicy } from './test-policy.js';

/** Options that change what the guard lets through. Production code passes nothing (DEFAULT_NET_POLICY). */
export interface NetPolicy {
  /** Honoured only on objects minted by test-policy.ts's createTestPolicy; see that file for why. */
  readonly allowLoopbackForTests: boolean;
}

export const DEFAULT_NET_POLICY: NetPolicy = Object.freeze({ allowLoopbackForTests: false });

const BLOCKED_NAME_SUFFIXES = ['.localhost', '.local', '.internal'];

/**
 * Parses a URL and applies every check that needs no DNS: scheme, credentials, host names, IP literals.
 * Host literals are normalised by the WHATWG parser (`new URL`) first, so 2130706433, 0177.0.0.1, 0x7f.1,
 * 127.1 and full-width digits all arrive here as 127.0.0.1 — the guard never re-implements that parsing.
 */
export function checkUrl(raw: string, policy: NetPolicy = DEFAULT_NET_POLICY): URL {
  if (raw.length === 0) throw blockedUrl('(empty)', 'the URL is empty');
  // The WHATWG parser silently drops tabs/newlines and trims spaces; a URL that needed that is suspicious.
  if (/[\s\u0000-\u001f\u007f]/u.test(raw)) throw blockedUrl(raw, 'the URL contains whitespace or control characters');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw blockedUrl(raw, 'it is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw blockedUrl(raw, `only http and https are allowed, not ${url.protocol.slice(0, -1)}`);
  }
  // http://evil.com@127.0.0.1/ reads like evil.com to a person; refuse credentials instead of guessing intent.
  if (url.username !== '' || url.password !== '') {
    throw blockedUrl(raw, 'URLs with credentials (user:password@) are not allowed');
  }
  checkHost(url, raw, policy);
  return url;
}

/** The host name as DNS and the blocklist see it: no brackets, no trailing dots. */
export function bareHostname(url: URL): string {
  const host = url.hostname;
  if (host.startsWith('[') && host.endsWith(']')) return host.slice(1, -1);
  return host.replace(/\.+$/u, '');
}

function checkHost(url: URL, raw: string, policy: NetPolicy): void {
  const host = bareHostname(url);
  if (host === '') throw blockedUrl(raw, 'it has no host name');
  if (isIpLiteral(host)) {
    const reason = addressRefusal(classifyAddress(host), policy);
    if (reason) throw blockedUrl(raw, `it is ${reason}`, { address: host });
    return;
  }
  if (host === 'localhost' || BLOCKED_NAME_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    throw blockedUrl(raw, `the host name ${host} is reserved for local networks`);
  }
}

/** The refusal reason for an address under a policy, or undefined when the guard may connect to it. */
export function addressRefusal(verdict: AddressVerdict, policy: NetPolicy): string | undefined {
  if (!verdict.blockedReason) return undefined;
  if (verdict.loopback && loopbackAllowed(policy)) return undefined;
  return verdict.blockedReason;
}

function loopbackAllowed(policy: NetPolicy): boolean {
  return policy.allowLoopbackForTests === true && isMintedTestPolicy(policy);
}
