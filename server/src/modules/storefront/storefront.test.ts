import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false });
});
afterAll(async () => {
  await t.close();
});

const storefrontOf = async (handle: string) => {
  const response = await t.app.inject({ url: `/api/storefront/${handle}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('GET /api/storefront/:handle while the seller is live', () => {
  it('names the live stream and its room while it runs, and none before or after', async () => {
    const seller = await signUp(t.app);
    const post = (url: string, payload?: object) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: seller.cookie },
        ...(payload ? { payload } : {}),
      });
    const room = (await post('/api/rooms', { title: 'Crate digging tonight' })).json().roomName;
    // Created but not started: not live.
    expect((await storefrontOf(seller.handle)).liveStream).toBeNull();

    expect((await post(`/api/streams/${room}/start`)).statusCode).toBe(200);
    const live = await storefrontOf(seller.handle);
    expect(live.liveStream).toMatchObject({ roomName: room, title: 'Crate digging tonight', isActive: true });
    expect(live.liveStream.owner.handle).toBe(seller.handle);

    expect((await post(`/api/streams/${room}/end`)).statusCode).toBe(200);
    expect((await storefrontOf(seller.handle)).liveStream).toBeNull();
  });

  it('shows another seller’s live stream on their storefront only', async () => {
    const [live, quiet] = [await signUp(t.app), await signUp(t.app)];
    const post = (url: string, payload?: object) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: live.cookie },
        ...(payload ? { payload } : {}),
      });
    const room = (await post('/api/rooms', { title: 'On air' })).json().roomName;
    await post(`/api/streams/${room}/start`);
    expect((await storefrontOf(live.handle)).liveStream?.roomName).toBe(room);
    expect((await storefrontOf(quiet.handle)).liveStream).toBeNull();
  });
});
