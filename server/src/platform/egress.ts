import { lookup as lookupCallback } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import { canonicalAddress, ipv4Of, ipv6Groups } from './ip-address.ts';

/**
 * Where the server may connect on a user's behalf (a Pro restream's RTMP URL). Without this a
 * user could point the server at 127.0.0.1, the private network or a cloud metadata service.
 */
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", and 0.0.0.0 itself
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['fc00::', 7], // unique local, including fd00:ec2::254 (metadata)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/** ::ffff:127.0.0.1 is 127.0.0.1. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/**
 * IPv6 spellings of an IPv4 address, which an IPv4 rule must see through: IPv4-mapped
 * (::ffff:0:0/96, also written in hex, ::ffff:7f00:1) and 6to4 (2002:AABB:CCDD::/48). The
 * deprecated or translation-only forms are never the internet and are refused whole:
 * IPv4-compatible (::/96, ::7f00:1), IPv4-translated (::ffff:0:0:0/96, ::ffff:0:7f00:1), Teredo
 * (2001::/32) and NAT64's local-use prefix (64:ff9b:1::/48).
 */
function ipv4Behind(groups: number[]): string | 'refused' | undefined {
  const [g0, g1 = 0, g2 = 0, , g4, g5, g6 = 0, g7 = 0] = groups;
  const zeroUpTo = (n: number) => groups.slice(0, n).every((group) => group === 0);
  if (zeroUpTo(5) && g5 === 0xffff) return ipv4Of(g6, g7);
  if (zeroUpTo(6)) return 'refused';
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return 'refused';
  if (g0 === 0x2001 && g1 === 0) return 'refused';
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'refused';
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  return undefined;
}

/**
 * The server's own addresses, on every interface: a restream to its public address (or to a
 * private one an interface has, in a range not listed above) is a connection to itself.
 */
export function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) own.add(canonicalAddress(entry.address));
  }
  return own;
}

/**
 * Whether an address is loopback, private, link-local, multicast, one of this host's own, or
 * otherwise not the internet (also when spelt as IPv6). `own` holds canonical addresses
 * (ownAddresses()).
 */
export function isForbiddenAddress(address: string, own: Set<string> = ownAddresses()): boolean {
  if (isIP(address) === 6) {
    const behind = ipv4Behind(ipv6Groups(address));
    if (behind === 'refused') return true;
    if (behind) return isForbiddenAddress(behind, own);
  }
  if (own.has(canonicalAddress(address))) return true;
  return FORBIDDEN.check(address, family(address));
}

/** The operator's RESTREAM_ALLOWED_HOSTS: host names, addresses and CIDR ranges. */
function allowList(entries: string[]) {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const kind = isIP(address);
    if (kind === 0) hosts.add(entry.toLowerCase());
    else if (bits === undefined) ranges.addAddress(address, kind === 6 ? 'ipv6' : 'ipv4');
    else ranges.addSubnet(address, Number(bits), kind === 6 ? 'ipv6' : 'ipv4');
  }
  return { hosts, ranges };
}

const LOOKUP_TIMEOUT_MS = 3000;

/**
 * Why the server must not connect to this URL's host, or undefined when it may. The host is
 * resolved and every address it resolves to is checked, so a name (or a numeric spelling such as
 * 2130706433) that leads to a forbidden address is refused too. Checked when the URL is saved and
 * again right before each connection (a name can change what it resolves to).
 */
export async function egressRefusal(url: string, allowed: string[]): Promise<string | undefined> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return 'is not a valid URL';
  }
  if (!host) return 'has no host';
  const allow = allowList(allowed);
  if (allow.hosts.has(host)) return undefined;
  let addresses: string[];
  try {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS).unref(),
    );
    addresses = (await Promise.race([lookup(host, { all: true, verbatim: true }), timeout])).map(
      (entry) => entry.address,
    );
  } catch {
    return `host ${host} could not be resolved`;
  }
  const own = ownAddresses();
  for (const address of addresses) {
    const plain = unmapped(address);
    if (allow.ranges.check(plain, family(plain))) continue;
    if (isForbiddenAddress(plain, own))
      return `host ${host} is a private or local address, which is not allowed`;
  }
  return undefined;
}

/**
 * A `lookup` for net/tls.connect that refuses a name resolving to a forbidden address at the
 * moment of connecting, so the address checked is the address used (no DNS-rebinding window
 * between a check and the connection). Literal addresses never reach a lookup: check those with
 * egressRefusal first.
 */
export function guardedLookup(allowed: string[]): LookupFunction {
  const allow = allowList(allowed);
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true, verbatim: true }, (error, entries) => {
      if (error) return callback(error, '', 0);
      const host = hostname.toLowerCase();
      const own = ownAddresses();
      const usable = allow.hosts.has(host)
        ? entries
        : entries.filter((entry) => {
            const plain = unmapped(entry.address);
            return allow.ranges.check(plain, family(plain)) || !isForbiddenAddress(plain, own);
          });
      if (usable.length < entries.length || usable.length === 0) {
        const refused = Object.assign(
          new Error(`host ${hostname} is a private or local address, which is not allowed`),
          { code: 'EGRESS_REFUSED' },
        );
        return callback(refused, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
      const [first] = usable;
      callback(null, first?.address ?? '', first?.family ?? 4);
    });
  };
}
