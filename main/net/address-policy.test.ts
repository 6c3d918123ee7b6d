import { describe, expect, it } from 'vitest';
import { classifyAddress, isIpLiteral } from './address-policy.js';

describe('classifyAddress', () => {
  const blocked: Array<[string, RegExp]> = [
    ['0.0.0.0', /"this network".*0\.0\.0\.0\/8/u],
    ['0.255.255.255', /0\.0\.0\.0\/8/u],
    ['10.0.0.5', /^a private address 10\.0\.0\.5 \(10\.0\.0\.0\/8\)$/u],
    ['10.255.255.255', /10\.0\.0\.0\/8/u],
    ['100.64.0.1', /carrier-grade NAT.*100\.64\.0\.0\/10/u],
    ['100.127.255.255', /100\.64\.0\.0\/10/u],
    ['127.0.0.1', /loopback.*127\.0\.0\.0\/8/u],
    ['127.255.255.254', /loopback/u],
    ['169.254.169.254', /cloud metadata address 169\.254\.169\.254/u],
    ['169.254.1.1', /link-local.*169\.254\.0\.0\/16/u],
    ['172.16.0.1', /private.*172\.16\.0\.0\/12/u],
    ['172.31.255.255', /172\.16\.0\.0\/12/u],
    ['192.168.1.1', /private.*192\.168\.0\.0\/16/u],
    ['224.0.0.1', /multicast.*224\.0\.0\.0\/4/u],
    ['239.255.255.250', /multicast/u],
    ['240.0.0.1', /reserved.*240\.0\.0\.0\/4/u],
    ['255.255.255.255', /broadcast/u],
    ['::', /unspecified/u],
    ['::1', /loopback address ::1/u],
    ['[::1]', /loopback/u],
    ['fd00:ec2::254', /cloud metadata address fd00:ec2::254/u],
    ['fc00::1', /unique-local.*fc00::\/7/u],
    ['fdff:ffff::1', /unique-local/u],
    ['fe80::1', /link-local.*fe80::\/10/u],
    ['febf::1', /link-local/u],
    ['fec0::1', /site-local/u],
    ['ff02::1', /multicast.*ff00::\/8/u],
    ['::ffff:127.0.0.1', /loopback address 127\.0\.0\.1.*IPv4-mapped IPv6 form/u],
    ['::ffff:10.0.0.1', /private address 10\.0\.0\.1.*IPv4-mapped/u],
    ['::ffff:169.254.169.254', /cloud metadata.*IPv4-mapped/u],
    ['::ffff:0:10.0.0.1', /private address 10\.0\.0\.1.*IPv4-translated/u],
    ['::127.0.0.1', /loopback address 127\.0\.0\.1.*IPv4-compatible/u],
    ['::10.0.0.1', /private.*IPv4-compatible/u],
    ['::2', /"this network" address 0\.0\.0\.2.*IPv4-compatible/u],
    ['fe80::1%eth0', /link-local/u],
    ['64:ff9b::10.0.0.1', /private address 10\.0\.0\.1.*NAT64/u],
    ['64:ff9b::169.254.169.254', /cloud metadata.*NAT64/u],
    ['64:ff9b:1::1', /local-use NAT64/u],
    ['2002:7f00:1::1', /loopback address 127\.0\.0\.1.*6to4/u],
    ['2002:a9fe:a9fe::', /cloud metadata.*6to4/u],
  ];
  it.each(blocked)('refuses %s', (address, reason) => {
    const verdict = classifyAddress(address);
    expect(verdict.blockedReason).toMatch(reason);
  });

  const allowed = [
    '8.8.8.8', '1.1.1.1', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255',
    '128.0.0.0', '169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255',
    '192.169.0.0', '223.255.255.255', '2606:4700:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8', '2002:0808:0808::', '::8.8.8.8',
  ];
  it.each(allowed)('allows %s', (address) => {
    expect(classifyAddress(address).blockedReason).toBeUndefined();
  });

  it('marks loopback (and only loopback) so the test policy can open it', () => {
    expect(classifyAddress('127.0.0.1').loopback).toBe(true);
    expect(classifyAddress('::1').loopback).toBe(true);
    expect(classifyAddress('::ffff:127.0.0.1').loopback).toBe(true);
    expect(classifyAddress('0.0.0.0').loopback).toBe(false);
    expect(classifyAddress('10.0.0.1').loopback).toBe(false);
    expect(classifyAddress('::').loopback).toBe(false);
  });

  it('knows IP literals from names', () => {
    expect(isIpLiteral('127.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('example.com')).toBe(false);
    expect(isIpLiteral('0x7f.1')).toBe(false);
  });
});
