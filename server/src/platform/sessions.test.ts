import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newAccount, signUp, type TestApp } from '../test/test-app.ts';

let t: TestApp;
let seller: Awaited<ReturnType<typeof signUp>>;
let productId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const { rows } = await t.database.pool.query(
    `insert into categories (name, slug) values ('Vinyl & Records', 'vinyl-records') returning id`,
  );
  seller = await signUp(t.app);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/products',
    headers: { cookie: seller.cookie },
    payload: { title: 'Test pressing', priceCents: 1000, condition: 'new', categoryId: rows[0].id },
  });
  productId = created.json().id;
});
afterAll(async () => {
  await t.close();
});

/** A body that breaks every schema: validation would answer 400 and name the fields. */
const GARBAGE = { title: 42, priceCents: 'free', handle: [], productId: 'x', durationSec: -1, card: {} };

describe('a route that needs a session answers 401 before it looks at params or body', () => {
  const routes: Array<[method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: () => string]> = [
    ['GET', () => '/api/auth/user'],
    ['GET', () => '/api/products/mine'],
    ['POST', () => '/api/products'],
    ['PUT', () => `/api/products/${productId}`],
    ['PUT', () => '/api/products/not-a-uuid'],
    ['DELETE', () => '/api/products/not-a-uuid'],
    ['POST', () => '/api/uploads/product-image'],
    ['GET', () => '/api/analytics'],
    ['GET', () => '/api/orders'],
    ['GET', () => '/api/streams/mine'],
    ['GET', () => '/api/streams/mine/stats'],
    ['POST', () => '/api/rooms'],
    ['GET', () => '/api/streams/NOT_A_ROOM/stats'],
    ['POST', () => '/api/streams/NOT_A_ROOM/start'],
    ['POST', () => '/api/streams/NOT_A_ROOM/end'],
    ['GET', () => '/api/moderators'],
    ['POST', () => '/api/moderators'],
    ['DELETE', () => '/api/moderators/%00'],
    ['GET', () => '/api/chat-settings'],
    ['PUT', () => '/api/chat-settings'],
    ['POST', () => '/api/checkout/not-a-uuid'],
    ['POST', () => '/api/create-subscription'],
    ['GET', () => '/api/subscription'],
    ['POST', () => '/api/subscription/cancel'],
    ['POST', () => '/api/streams/NOT_A_ROOM/lineup'],
    ['DELETE', () => '/api/streams/NOT_A_ROOM/lineup/x'],
    ['POST', () => '/api/streams/NOT_A_ROOM/pins'],
    ['DELETE', () => '/api/streams/NOT_A_ROOM/pins/x'],
    ['POST', () => '/api/streams/NOT_A_ROOM/offers'],
    ['POST', () => '/api/streams/NOT_A_ROOM/offers/end'],
  ];

  it.each(routes)('%s %s', async (method, url) => {
    const response = await t.app.inject({
      method,
      url: url(),
      ...(method === 'GET' || method === 'DELETE' ? {} : { payload: GARBAGE }),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Unauthorized', code: 'UNAUTHORIZED' });
  });

  it('someone else’s product is a 404 before the body is validated', async () => {
    const other = await signUp(t.app);
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${productId}`,
      headers: { cookie: other.cookie },
      payload: GARBAGE,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().fields).toBeUndefined();
  });

  it('the owner with a bad body gets the 400 with its fields', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${productId}`,
      headers: { cookie: seller.cookie },
      payload: GARBAGE,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('title');
  });
});

describe('idle sessions', () => {
  it('end after the idle timeout even though the 30 days are not up', async () => {
    const account = await signUp(t.app);
    await t.database.pool.query(
      `update sessions set last_seen_at = now() - interval '8 days' where user_id = $1`,
      [account.user.id],
    );
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie: account.cookie } });
    expect(me.statusCode).toBe(401);
  });

  it('are kept alive by use', async () => {
    const account = await signUp(t.app);
    await t.database.pool.query(
      `update sessions set last_seen_at = now() - interval '6 days' where user_id = $1`,
      [account.user.id],
    );
    expect(
      (await t.app.inject({ url: '/api/auth/user', headers: { cookie: account.cookie } })).statusCode,
    ).toBe(200);
    const { rows } = await t.database.pool.query(
      `select now() - last_seen_at < interval '1 minute' as fresh from sessions where user_id = $1`,
      [account.user.id],
    );
    expect(rows[0].fresh).toBe(true);
  });
});

describe('on https', () => {
  it('the session cookie is __Host-sid: Secure, Path=/, no Domain; a plain sid cookie is ignored', async () => {
    const secure = await buildTestApp({ publicUrl: 'https://shop.example' }, { database: t.database });
    try {
      const response = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        headers: { origin: 'https://shop.example' },
        payload: newAccount(),
      });
      expect(response.statusCode).toBe(201);
      const cookie = response.cookies.find((c) => c.name === '__Host-sid');
      expect(cookie).toMatchObject({ secure: true, path: '/', httpOnly: true });
      expect(cookie?.domain).toBeUndefined();
      const withHostCookie = await secure.app.inject({
        url: '/api/auth/user',
        headers: { cookie: `__Host-sid=${cookie?.value}` },
      });
      expect(withHostCookie.statusCode).toBe(200);
      const withPlainCookie = await secure.app.inject({
        url: '/api/auth/user',
        headers: { cookie: `sid=${cookie?.value}` },
      });
      expect(withPlainCookie.statusCode).toBe(401);
    } finally {
      await secure.close();
    }
  });
});
