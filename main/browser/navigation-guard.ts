import { FermixError } from '../core/errors.js';
import { classifyAddress, isIpLiteral, type AddressVerdict } from '../net/address-policy.js';
import { systemResolver, type HostResolver, type ResolvedAddress } from '../net/resolve-and-pin.js';

/**
 * The browser's navigation policy (reference §2.12): http, https and about:blank; link-local, metadata,
 * unspecified and other non-routable addresses refused; LAN, tailnet and loopback allowed (people browse
 * their own dev servers) — except the daemon's own port on loopback, so the agent can never drive or read
 * its own window or session cookie. Addresses are classified by Net.Guard (main/net/address-policy.ts);
 * this file only decides which of Net.Guard's refusals the browser relaxes.
 */

// Net.Guard names each range it refuses; these are the ones a browser may still visit. Matched on the
// start of the reason, so an IPv4-mapped/NAT64 form of a private address is judged like the address.
const BROWSABLE_RANGES = ['a private address', 'a unique-local (private) address', 'a carrier-grade NAT address', 'a site-local address', 'a loopback address'];

// Metadata services also answer on names that do not resolve off-cloud (so the DNS check would not see
// them); refusing the names keeps the refusal the same on a laptop and on a VM.
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.internal']);

const LOOPBACK_NAMES = (host: string) => host === 'localhost' || host.endsWith('.localhost');

export interface NavigationGuardOptions {
  /** The daemon's own HTTP port(s), refused on every loopback address (read per check: it is known only after listen). */
  daemonPorts: () => readonly number[];
  resolver?: HostResolver;
}

export interface Verdict {
  reason?: string;
  /** Where to connect when allowed; absent when the name did not resolve (the connection then fails). */
  address?: string;
}

export interface BlockedRequest {
  url: string;
  reason: string;
}

export function navigationBlocked(url: string, reason: string): FermixError {
  return new FermixError({
    code: 'navigation_blocked',
    message: `The browser may not open ${url.slice(0, 200)}: ${reason}.`,
    hint: 'Use an http(s) page or about:blank; link-local and cloud-metadata addresses and the Fermix daemon\'s own port are never reachable from the browser.',
    data: { url: url.slice(0, 2000), reason },
  });
}

function addressReason(verdict: AddressVerdict): string | undefined {
  if (!verdict.blockedReason) return undefined;
  return BROWSABLE_RANGES.some((range) => verdict.blockedReason!.startsWith(range)) ? undefined : `it is ${verdict.blockedReason}`;
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80;
}

function bare(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return unbracketed.replace(/\.+$/u, '').toLowerCase();
}

export function createNavigationGuard(options: NavigationGuardOptions) {
  const resolver = options.resolver ?? systemResolver;
  // Resolved once per browser session (reference §2.12); a relaunch starts a new guard.
  const resolved = new Map<string, Promise<ResolvedAddress[]>>();
  const blocked: BlockedRequest[] = [];

  const daemonReason = (url: URL, loopback: boolean) =>
    loopback && options.daemonPorts().includes(portOf(url)) ? `port ${portOf(url)} on this machine is the Fermix daemon itself` : undefined;

  /** Everything decidable without DNS; `undefined` host means "needs a lookup". */
  function staticReason(url: URL, schemes: readonly string[]): { reason?: string; host?: string } {
    if (!schemes.includes(url.protocol)) return { reason: `only http, https and about:blank are allowed, not ${url.protocol.slice(0, -1)}` };
    if (url.username !== '' || url.password !== '') return { reason: 'URLs with credentials (user:password@) are not allowed' };
    const host = bare(url.hostname);
    if (host === '') return { reason: 'it has no host name' };
    if (isIpLiteral(host)) {
      const verdict = classifyAddress(host);
      return { reason: addressReason(verdict) ?? daemonReason(url, verdict.loopback) };
    }
    if (METADATA_NAMES.has(host)) return { reason: `${host} is a cloud metadata service` };
    if (LOOPBACK_NAMES(host)) return { reason: daemonReason(url, true), host };
    return { host };
  }

  async function resolveChecked(url: URL, host: string): Promise<Verdict> {
    let lookup = resolved.get(host);
    if (!lookup) {
      lookup = resolver(host);
      resolved.set(host, lookup);
      // A failed lookup is not cached: the name may resolve on the next try, and Chromium reports the failure itself.
      lookup.catch(() => resolved.delete(host));
    }
    let addresses: ResolvedAddress[];
    try {
      addresses = await lookup;
    } catch {
      return {};
    }
    // Every address must pass: a name with one public and one link-local record is an SSRF attempt.
    for (const entry of addresses) {
      const verdict = classifyAddress(entry.address);
      const reason = addressReason(verdict) ?? daemonReason(url, verdict.loopback);
      if (reason) return { reason: `${host} resolves to ${entry.address}: ${reason}` };
    }
    return { address: addresses[0]?.address };
  }

  /** The verdict on a URL and, when allowed, the address to connect to (the one that was checked). */
  async function check(raw: string, schemes: readonly string[] = ['http:', 'https:']): Promise<Verdict> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { reason: 'it is not a valid absolute URL' };
    }
    const first = staticReason(url, schemes);
    if (first.reason) return { reason: first.reason };
    if (first.host === undefined) return { address: bare(url.hostname) };
    if (LOOPBACK_NAMES(first.host)) return { address: '127.0.0.1' };
    return resolveChecked(url, first.host);
  }

  /** Why a request or navigation to this URL is refused, or undefined when it may go. */
  async function refusal(raw: string, schemes?: readonly string[]): Promise<string | undefined> {
    return (await check(raw, schemes)).reason;
  }

  return {
    blocked,
    check,
    refusal,
    /** A navigation target chosen by the model: throws `navigation_blocked`. */
    async assertNavigable(raw: string): Promise<string> {
      if (raw === 'about:blank') return raw;
      const reason = await refusal(raw);
      if (reason) throw navigationBlocked(raw, reason);
      return new URL(raw).href;
    },
    /** For WebSocket routing, which wants a synchronous answer: literal addresses and names only. */
    refusesWithoutDns(raw: URL): boolean {
      return staticReason(raw, ['ws:', 'wss:']).reason !== undefined;
    },
    /** Records a refused page subrequest so the action that caused it can say why. */
    record(url: string, reason: string) {
      blocked.push({ url, reason });
      if (blocked.length > 50) blocked.shift();
    },
    /** The most recent refusal for a URL (navigation errors from Chromium only say ERR_BLOCKED_BY_CLIENT). */
    lastFor(url: string): BlockedRequest | undefined {
      for (let index = blocked.length - 1; index >= 0; index -= 1) if (blocked[index].url === url) return blocked[index];
      return blocked.at(-1);
    },
  };
}

export type NavigationGuard = ReturnType<typeof createNavigationGuard>;
