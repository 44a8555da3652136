import type { Following } from '@streamshop/contract/follows.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUpFrom, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false });
});
afterAll(async () => {
  await t.close();
});

type Account = Awaited<ReturnType<typeof signUpFrom>>;
const call = (method: 'GET' | 'POST' | 'DELETE', url: string, who?: Account, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: who ? { cookie: who.cookie } : {},
    ...(who ? { remoteAddress: who.ip } : {}),
    ...(payload ? { payload } : {}),
  });

describe('following a seller', () => {
  it('counts followers, tells each viewer whether they follow, and follows once', async () => {
    const seller = await signUpFrom(t.app, '10.71');
    const fan = await signUpFrom(t.app, '10.71');
    const other = await signUpFrom(t.app, '10.71');
    const url = `/api/sellers/${seller.handle}/follow`;
    expect((await call('POST', url)).statusCode).toBe(401);
    expect((await call('DELETE', url)).statusCode).toBe(401);
    expect((await call('GET', url)).json()).toEqual({
      handle: seller.handle,
      following: false,
      followers: 0,
    });
    await Promise.all([call('POST', url, fan), call('POST', url, fan)]);
    await call('POST', url, other);
    expect((await call('GET', url, fan)).json()).toEqual({
      handle: seller.handle,
      following: true,
      followers: 2,
    });
    expect((await call('GET', url)).json().following).toBe(false);
    // Handles are matched as typed with an @ or in capitals.
    expect((await call('GET', `/api/sellers/@${seller.handle.toUpperCase()}/follow`)).json().followers).toBe(
      2,
    );
    expect((await call('DELETE', url, other)).json()).toMatchObject({ following: false, followers: 1 });
    expect((await call('DELETE', url, other)).json()).toMatchObject({ following: false, followers: 1 });
    expect((await call('GET', '/api/sellers/no_such_seller_here/follow')).statusCode).toBe(404);
  });

  it('lists the followed sellers with their live rooms and upcoming shows', async () => {
    const seller = await signUpFrom(t.app, '10.72');
    const quiet = await signUpFrom(t.app, '10.72');
    const unfollowed = await signUpFrom(t.app, '10.72');
    const fan = await signUpFrom(t.app, '10.72');
    expect((await call('GET', '/api/following')).statusCode).toBe(401);
    await call('POST', `/api/sellers/${seller.handle}/follow`, fan);
    await call('POST', `/api/sellers/${quiet.handle}/follow`, fan);
    const room = (await call('POST', '/api/rooms', seller, { title: 'On now' })).json().roomName;
    await call('POST', `/api/streams/${room}/start`, seller);
    const elsewhere = (await call('POST', '/api/rooms', unfollowed, { title: 'Not followed' })).json()
      .roomName;
    await call('POST', `/api/streams/${elsewhere}/start`, unfollowed);
    const startsAt = new Date(Date.now() + 86_400_000).toISOString();
    const show = (
      await call('POST', '/api/shows', quiet, { title: 'Tomorrow', startsAt, timeZone: 'Europe/Berlin' })
    ).json();
    await call('POST', '/api/shows', unfollowed, { title: 'Not followed', startsAt, timeZone: 'UTC' });

    const following = (await call('GET', '/api/following', fan)).json() as Following;
    expect(following.sellers.map((s) => s.handle).sort()).toEqual([quiet.handle, seller.handle].sort());
    expect(following.sellers.every((s) => s.followers === 1)).toBe(true);
    expect(following.live.map((s) => s.roomName)).toEqual([room]);
    expect(following.upcoming.map((s) => s.id)).toEqual([show.id]);
  });
});
