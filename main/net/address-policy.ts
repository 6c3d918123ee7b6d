import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses Net.Guard refuses, and why. The tables are explicit CIDR lists (not ipaddr.js's
 * `range()` names) so that a reviewer can read the policy in one place and a library upgrade cannot widen it.
 * Sources: Fermix Net.Guard (reference §2.13) plus the brief's additions (100.64/10, fd00:ec2::254, NAT64).
 */

export interface AddressVerdict {
  /** The address as classified, canonical form (IPv6 without brackets). */
  address: string;
  /** Why it is refused, e.g. "a private address 10.0.0.5 (10.0.0.0/8)"; undefined when allowed. */
  blockedReason?: string;
  /** True when the (embedded) address is loopback: the only range the test policy may open. */
  loopback: boolean;
}

type Rule = { cidr: [ipaddr.IPv4 | ipaddr.IPv6, number]; text: string; what: string; loopback?: boolean };

function rule(cidr: string, what: string, loopback = false): Rule {
  return { cidr: ipaddr.parseCIDR(cidr), text: cidr, what, loopback };
}

/**
 * The tables are parsed on the first classification, not when the module loads: every daemon start loads
 * Net.Guard, and parsing these 25 CIDRs with ipaddr.js was ~1.4 ms of it in a CPU profile, before any fetch.
 */
let tables: ReturnType<typeof parseRuleTables> | undefined;
const rules = () => (tables ??= parseRuleTables());

function parseRuleTables() {
  // Order matters: the first match names the reason, so specific entries come before their enclosing range.
  const IPV4_RULES: Rule[] = [
    rule('169.254.169.254/32', 'the cloud metadata address'),
    rule('255.255.255.255/32', 'the broadcast address'),
    rule('0.0.0.0/8', 'a "this network" address'),
    rule('10.0.0.0/8', 'a private address'),
    rule('100.64.0.0/10', 'a carrier-grade NAT address'),
    rule('127.0.0.0/8', 'a loopback address', true),
    rule('169.254.0.0/16', 'a link-local address'),
    rule('172.16.0.0/12', 'a private address'),
    rule('192.168.0.0/16', 'a private address'),
    rule('224.0.0.0/4', 'a multicast address'),
    rule('240.0.0.0/4', 'a reserved address'),
  ];

  const IPV6_RULES: Rule[] = [
    rule('::/128', 'the unspecified address'),
    rule('::1/128', 'a loopback address', true),
    // AWS's IPv6 instance metadata endpoint; inside fc00::/7 but worth naming.
    rule('fd00:ec2::254/128', 'the cloud metadata address'),
    rule('fc00::/7', 'a unique-local (private) address'),
    rule('fe80::/10', 'a link-local address'),
    // Deprecated site-local (RFC 3879): still routed inside some networks as if private.
    rule('fec0::/10', 'a site-local address'),
    rule('ff00::/8', 'a multicast address'),
    // RFC 8215 local-use NAT64: translates into the operator's own network, so refuse it outright.
    rule('64:ff9b:1::/48', 'a local-use NAT64 address'),
  ];

  // IPv6 forms that carry an IPv4 address in their low 32 bits, and so must be judged as that IPv4 address;
  // otherwise [::ffff:7f00:1] or [64:ff9b::a00:1] would reach 127.0.0.1 or 10.0.0.1 past an IPv6-only check.
  const EMBEDDED_IPV4_LOW_BITS: Rule[] = [
    rule('::ffff:0:0/96', 'IPv4-mapped'),
    rule('::ffff:0:0:0/96', 'IPv4-translated'),
    rule('64:ff9b::/96', 'NAT64'),
    rule('::/96', 'IPv4-compatible'),
  ];
  // 6to4 (RFC 3056) carries its IPv4 address in bits 16..47 instead.
  const SIX_TO_FOUR = rule('2002::/16', '6to4');
  return { IPV4_RULES, IPV6_RULES, EMBEDDED_IPV4_LOW_BITS, SIX_TO_FOUR };
}

/** Classifies one IP literal (IPv4 dotted-quad or IPv6, brackets allowed). Throws on a non-IP string. */
export function classifyAddress(literal: string): AddressVerdict {
  const bare = literal.startsWith('[') && literal.endsWith(']') ? literal.slice(1, -1) : literal;
  // A zone (fe80::1%eth0) does not change the range; drop it so the parsers below accept the address.
  const text = bare.replace(/%.*$/u, '');
  // ipaddr.js reads "::127.0.0.1" as ::ffff:7f00:1 (mapped, not compatible); the WHATWG parser gets it right,
  // and is what normalised the URL in the first place, so IPv6 text goes through it first.
  const parsed = ipaddr.parse(text.includes(':') ? new URL(`http://[${text}]/`).hostname.slice(1, -1) : text);
  if (parsed.kind() === 'ipv4') return classifyV4(parsed as ipaddr.IPv4, parsed.toString());
  return classifyV6(parsed as ipaddr.IPv6);
}

export function isIpLiteral(text: string): boolean {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  return ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare);
}

function classifyV4(address: ipaddr.IPv4, shown: string): AddressVerdict {
  const hit = rules().IPV4_RULES.find((r) => address.match(r.cidr));
  const canonical = address.toString();
  if (!hit) return { address: shown, loopback: false };
  return { address: shown, loopback: hit.loopback === true, blockedReason: `${hit.what} ${canonical} (${hit.text})` };
}

function classifyV6(address: ipaddr.IPv6): AddressVerdict {
  const shown = address.toString();
  const { IPV6_RULES, EMBEDDED_IPV4_LOW_BITS, SIX_TO_FOUR } = rules();
  const hit = IPV6_RULES.find((r) => address.match(r.cidr));
  if (hit) return { address: shown, loopback: hit.loopback === true, blockedReason: `${hit.what} ${shown} (${hit.text})` };

  const embeddedForm = EMBEDDED_IPV4_LOW_BITS.find((r) => address.match(r.cidr));
  const parts = address.parts;
  let embedded: ipaddr.IPv4 | undefined;
  let form = '';
  if (embeddedForm) {
    embedded = fromWords(parts[6], parts[7]);
    form = embeddedForm.what;
  } else if (address.match(SIX_TO_FOUR.cidr)) {
    embedded = fromWords(parts[1], parts[2]);
    form = SIX_TO_FOUR.what;
  }
  if (!embedded) return { address: shown, loopback: false };
  const inner = classifyV4(embedded, embedded.toString());
  if (!inner.blockedReason) return { address: shown, loopback: false };
  return {
    address: shown,
    loopback: inner.loopback,
    blockedReason: `${inner.blockedReason}, in its ${form} IPv6 form ${shown}`,
  };
}

function fromWords(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
