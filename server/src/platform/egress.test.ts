import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { egressRefusal, isForbiddenAddress, ownAddresses } from './egress.ts';
import { canonicalAddress } from './ip-address.ts';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.9.9.9',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'fd00:ec2::254',
    'fe80::1',
    'ff02::1',
    // Other IPv6 spellings of IPv4 addresses (security review 3).
    '::ffff:7f00:1',
    '::7f00:1',
    '::ffff:0:7f00:1',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '2002:a9fe:a9fe::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '64:ff9b:1::a00:1',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '203.0.113.10',
    '172.32.0.1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '2002:808:808::',
  ])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe("this host's own addresses", () => {
  it('refuses every address of every interface, in any spelling', () => {
    const own = ownAddresses();
    for (const entries of Object.values(networkInterfaces())) {
      for (const entry of entries ?? []) expect(isForbiddenAddress(entry.address), entry.address).toBe(true);
    }
    expect(isForbiddenAddress('203.0.113.10', new Set(['203.0.113.10']))).toBe(true);
    expect(isForbiddenAddress('2001:db8:0:0::10', new Set([canonicalAddress('2001:db8::10')]))).toBe(true);
    expect(isForbiddenAddress('::ffff:203.0.113.10', new Set(['203.0.113.10']))).toBe(true);
    expect(isForbiddenAddress('203.0.113.10', new Set())).toBe(false);
    expect(own.size).toBeGreaterThan(0);
  });
});

describe('egressRefusal', () => {
  it('resolves names and numeric spellings before deciding', async () => {
    expect(await egressRefusal('rtmp://localhost/live/key', [])).toMatch(/private or local/);
    expect(await egressRefusal('rtmp://2130706433/live/key', [])).toMatch(/private or local/);
    expect(await egressRefusal('rtmp://no-such-host.invalid/live', [])).toMatch(/could not be resolved/);
    expect(await egressRefusal('rtmps://203.0.113.10/app/key', [])).toBeUndefined();
  });

  it('lets the operator allow names, addresses and ranges', async () => {
    expect(await egressRefusal('rtmp://localhost/live/key', ['localhost'])).toBeUndefined();
    expect(await egressRefusal('rtmp://127.0.0.1/live/key', ['127.0.0.1'])).toBeUndefined();
    expect(await egressRefusal('rtmp://10.2.3.4/live/key', ['10.0.0.0/8'])).toBeUndefined();
    expect(await egressRefusal('rtmp://10.2.3.4/live/key', ['127.0.0.1'])).toMatch(/private or local/);
  });
});
