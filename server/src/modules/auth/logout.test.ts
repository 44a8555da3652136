import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let category: number;
beforeAll(async () => {
  t = await buildTestApp();
  const { rows } = await t.database.pool.query(
    `insert into categories (name, slug) values ('Vinyl & Records', 'vinyl-records') returning id`,
  );
  category = rows[0].id;
});
afterAll(async () => {
  await t.close();
});

const NAVIGATION = {
  'sec-fetch-dest': 'document',
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'navigate',
};

async function isSignedIn(cookie: string) {
  const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
  return me.statusCode === 200;
}

describe('GET /api/logout (the drawer’s Sign Out)', () => {
  it('signs out on a top-level navigation from the site itself', async () => {
    const account = await signUp(t.app);
    const response = await t.app.inject({
      url: '/api/logout',
      headers: { cookie: account.cookie, ...NAVIGATION },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect(response.cookies.find((c) => c.name === 'sid')?.value).toBe('');
    expect(await isSignedIn(account.cookie)).toBe(false);
  });

  it.each([
    ['an <img> on the site', { 'sec-fetch-dest': 'image', 'sec-fetch-site': 'same-origin' }],
    ['a fetch from the site', { 'sec-fetch-dest': 'empty', 'sec-fetch-site': 'same-origin' }],
    ['a link from another site', { 'sec-fetch-dest': 'document', 'sec-fetch-site': 'cross-site' }],
    ['an address typed in the bar', { 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none' }],
    ['a client that sends no Sec-Fetch headers', {}],
  ])('only redirects %s, and the session lives on', async (_name, headers) => {
    const account = await signUp(t.app);
    const response = await t.app.inject({
      url: '/api/logout',
      headers: { cookie: account.cookie, ...headers },
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    expect(response.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(await isSignedIn(account.cookie)).toBe(true);
  });
});

describe('a product image cannot point at anything on the site but uploaded media', () => {
  const product = (imageUrl: string) => ({
    title: 'Test pressing',
    priceCents: 1000,
    condition: 'new',
    categoryId: category,
    imageUrl,
  });
  const saveProduct = (cookie: string, imageUrl: string, id?: string) =>
    t.app.inject({
      method: id ? 'PUT' : 'POST',
      url: id ? `/api/products/${id}` : '/api/products',
      headers: { cookie },
      payload: product(imageUrl),
    });

  it.each([
    '/api/logout',
    '/api/auth/logout',
    '/media/../api/logout',
    '/media/uploads/not-an-upload.webp',
    '/media/recordings/some-stream.webm',
    '/explore?x=1',
    'http://localhost:3000/api/logout',
    'http://localhost:3000/media/uploads/0b7c5f3e-6f55-4a39-9d7e-3c2a7c4b8b21.webp?next=/api/logout',
  ])('refuses %s with a 400 on imageUrl (create and update)', async (imageUrl) => {
    const seller = await signUp(t.app);
    const created = await saveProduct(seller.cookie, imageUrl);
    expect(created.statusCode).toBe(400);
    expect(created.json().fields).toHaveProperty('imageUrl');

    const existing = await saveProduct(seller.cookie, 'https://images.example.com/record.jpg');
    expect(existing.statusCode).toBe(201);
    const updated = await saveProduct(seller.cookie, imageUrl, existing.json().id);
    expect(updated.statusCode).toBe(400);
    expect(updated.json().fields).toHaveProperty('imageUrl');
  });

  it.each([
    '/media/uploads/0b7c5f3e-6f55-4a39-9d7e-3c2a7c4b8b21.webp',
    'http://localhost:3000/media/uploads/0b7c5f3e-6f55-4a39-9d7e-3c2a7c4b8b21.webp',
    '/media/seed/products/12.svg',
    'https://images.example.com/record.jpg',
  ])('accepts %s', async (imageUrl) => {
    const seller = await signUp(t.app);
    // An upload names the seller's own image (POST /api/uploads/product-image records its owner).
    await t.database.pool.query(
      `insert into uploads (key, owner_id) values ('uploads/0b7c5f3e-6f55-4a39-9d7e-3c2a7c4b8b21.webp', $1)
       on conflict (key) do update set owner_id = excluded.owner_id`,
      [seller.user.id],
    );
    const created = await saveProduct(seller.cookie, imageUrl);
    expect(created.statusCode).toBe(201);
    expect(created.json().imageUrl).toBe(imageUrl);
  });
});
