import { afterEach, describe, expect, it } from 'vitest';
import { SIGNUP_LIMITS } from '../modules/auth/service.ts';
import { buildTestApp, newAccount, type TestApp } from '../test/test-app.ts';

/**
 * Behind a proxy the client address comes from X-Forwarded-For read from the right: the proxy
 * appends the address it saw, and whatever a client put on the left is not believed.
 */
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function signUpsFrom(app: TestApp['app'], forwardedFor: (i: number) => string, count: number) {
  const codes: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      headers: { 'x-forwarded-for': forwardedFor(i) },
      payload: newAccount(),
    });
    codes.push(response.statusCode);
  }
  return codes;
}

describe('per-address limits behind a reverse proxy', () => {
  it('TRUST_PROXY=1: rotating the left of X-Forwarded-For does not make a new client', async () => {
    t = await buildTestApp({ trustProxy: 1 });
    const codes = await signUpsFrom(t.app, (i) => `10.9.${i}.1, 198.51.100.7`, SIGNUP_LIMITS.perIp + 1);
    expect(codes.slice(0, SIGNUP_LIMITS.perIp).every((code) => code === 201)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    const other = await signUpsFrom(t.app, () => '10.9.0.1, 198.51.100.8', 1);
    expect(other).toEqual([201]);
  });

  it('TRUST_PROXY=<proxy addresses>: the first address from the right that is not a proxy is the client', async () => {
    t = await buildTestApp({ trustProxy: ['127.0.0.1', '10.0.0.0/8'] });
    // The test client connects from 127.0.0.1; 10.1.1.1 is a second proxy in front of it.
    const codes = await signUpsFrom(
      t.app,
      (i) => `192.0.2.${i}, 198.51.100.9, 10.1.1.1`,
      SIGNUP_LIMITS.perIp + 1,
    );
    expect(codes.at(-1)).toBe(429);
  });

  it('TRUST_PROXY=1: IPv6 clients count by their /64, so rotating the low bits is one client', async () => {
    t = await buildTestApp({ trustProxy: 1 });
    // Every sign-up from another address of 2001:db8:1:2::/64, written in other forms and cases.
    const inOne64 = (i: number) =>
      i % 2 === 0 ? `2001:db8:1:2:${i.toString(16)}::1` : `2001:DB8:0001:0002:ffff:${i.toString(16)}:0:${i}`;
    const codes = await signUpsFrom(t.app, inOne64, SIGNUP_LIMITS.perIp + 1);
    expect(codes.slice(0, SIGNUP_LIMITS.perIp).every((code) => code === 201)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // The neighbouring /64 is another client; so is an IPv4 client.
    expect(await signUpsFrom(t.app, () => '2001:db8:1:3::1', 1)).toEqual([201]);
    expect(await signUpsFrom(t.app, () => '198.51.100.10', 1)).toEqual([201]);
  });

  it('TRUST_PROXY=false: X-Forwarded-For is ignored', async () => {
    t = await buildTestApp({ trustProxy: false });
    const codes = await signUpsFrom(t.app, (i) => `198.51.100.${i}`, SIGNUP_LIMITS.perIp + 1);
    expect(codes.at(-1)).toBe(429);
  });
});
