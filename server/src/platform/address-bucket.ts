import { isIPv6 } from 'node:net';
import { ipv6Groups } from './ip-address.ts';

/**
 * The client a per-address limit counts: an IPv4 address alone, an IPv6 address by its /64.
 * One IPv6 subscriber is usually given a whole /64 (often more), so counting each of its 2^64
 * addresses alone would let one client escape every limit by rotating the low bits. IPv4-mapped
 * IPv6 (`::ffff:1.2.3.4`, what a dual-stack socket reports) counts as the IPv4 address.
 */
export function addressBucket(address: string): string {
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  return `${ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
