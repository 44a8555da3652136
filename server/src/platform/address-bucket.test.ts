import { describe, expect, it } from 'vitest';
import { addressBucket } from './address-bucket.ts';

/** Per-address limits count an IPv4 address alone and an IPv6 client by its /64 (security review, item 10). */
describe('addressBucket', () => {
  it('counts an IPv4 address alone', () => {
    expect(addressBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('203.0.113.8')).toBe('203.0.113.8');
  });

  it('counts an IPv6 address by its /64, whatever its low 64 bits', () => {
    const bucket = '2001:db8:1:2::/64';
    expect(addressBucket('2001:db8:1:2:3:4:5:6')).toBe(bucket);
    expect(addressBucket('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(bucket);
    expect(addressBucket('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('reads the full form, leading zeros and the compressed forms alike', () => {
    const bucket = '2001:db8:0:0::/64';
    expect(addressBucket('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(bucket);
    expect(addressBucket('2001:db8::1')).toBe(bucket);
    expect(addressBucket('2001:db8::')).toBe(bucket);
    expect(addressBucket('2001:db8:0:0:1::')).toBe(bucket);
    expect(addressBucket('2001:db8::1:0:0:1')).toBe(bucket);
    expect(addressBucket('1::')).toBe('1:0:0:0::/64');
    expect(addressBucket('::1')).toBe('0:0:0:0::/64');
  });

  it('ignores letter case', () => {
    expect(addressBucket('2001:DB8:ABCD:12::1')).toBe('2001:db8:abcd:12::/64');
    expect(addressBucket('2001:Db8:AbCd:0012:FFFF::1')).toBe('2001:db8:abcd:12::/64');
  });

  it('drops a zone id', () => {
    expect(addressBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('FE80::ABCD:1%25en0')).toBe('fe80:0:0:0::/64');
    expect(addressBucket('fe80::1%eth0')).toBe(addressBucket('fe80::2'));
  });

  it('counts an IPv4-mapped IPv6 address (a dual-stack socket) as the IPv4 address', () => {
    expect(addressBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:203.0.113.8')).not.toBe(addressBucket('::ffff:203.0.113.7'));
    // Other spellings of the same, and NAT64's (an IPv4 client of a server behind NAT64).
    expect(addressBucket('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressBucket('64:ff9b::203.0.113.7')).toBe('203.0.113.7');
    expect(addressBucket('64:ff9b::cb00:7108')).toBe('203.0.113.8');
  });

  it('reads an embedded dotted quad as the last two groups', () => {
    expect(addressBucket('2001:db8:a:b::1.2.3.4')).toBe('2001:db8:a:b::/64');
    expect(addressBucket('2001:db8:a:b::1.2.3.4')).toBe(addressBucket('2001:db8:a:b::102:304'));
    expect(addressBucket('2001:db8:1:2:3:4:1.2.3.4')).toBe('2001:db8:1:2::/64');
  });

  it('leaves anything that is not an IPv6 address as it is', () => {
    expect(addressBucket('unknown')).toBe('unknown');
    expect(addressBucket('')).toBe('');
  });
});
