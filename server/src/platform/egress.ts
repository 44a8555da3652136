import { lookup as lookupCallback } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

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

/** Whether an address is loopback, private, link-local, multicast or otherwise not the internet. */
export function isForbiddenAddress(address: string): boolean {
  const plain = unmapped(address);
  return FORBIDDEN.check(plain, family(plain));
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
  for (const address of addresses) {
    const plain = unmapped(address);
    if (allow.ranges.check(plain, family(plain))) continue;
    if (isForbiddenAddress(plain)) return `host ${host} is a private or local address, which is not allowed`;
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
      const usable = allow.hosts.has(host)
        ? entries
        : entries.filter((entry) => {
            const plain = unmapped(entry.address);
            return allow.ranges.check(plain, family(plain)) || !isForbiddenAddress(plain);
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
