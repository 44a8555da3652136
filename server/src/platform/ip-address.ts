import { isIPv6 } from 'node:net';

/**
 * The eight 16-bit groups of a valid IPv6 address (`::`, a zone id and a trailing dotted quad
 * allowed), so that every spelling of one address reads the same.
 */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  // A trailing dotted quad (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) is two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group, 16));
}

/** One spelling per address: IPv4 as it is, IPv6 as its eight groups in short hex. */
export function canonicalAddress(address: string): string {
  return isIPv6(address)
    ? ipv6Groups(address)
        .map((group) => group.toString(16))
        .join(':')
    : address;
}

/** The IPv4 address two groups hold. */
export const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
