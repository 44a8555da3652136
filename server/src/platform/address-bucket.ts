import { isIPv6 } from 'node:net';
import { ipv4Of, ipv6Groups } from './ip-address.ts';

/**
 * The client a per-address limit counts: an IPv4 address alone, an IPv6 address by its /64.
 * One IPv6 subscriber is usually given a whole /64 (often more), so counting each of its 2^64
 * addresses alone would let one client escape every limit by rotating the low bits. An IPv4
 * address written as IPv6 counts as the IPv4 address, in any spelling: IPv4-mapped
 * (`::ffff:1.2.3.4`, what a dual-stack socket reports, or `::ffff:102:304`) and NAT64's
 * `64:ff9b::/96` (IPv4 clients of a server behind NAT64).
 */
export function addressBucket(address: string): string {
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const mapped = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff;
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (mapped || nat64) return ipv4Of(g6, g7);
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
