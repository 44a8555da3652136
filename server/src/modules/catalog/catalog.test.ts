import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let seller: Awaited<ReturnType<typeof signUp>>;
let other: Awaited<ReturnType<typeof signUp>>;
let vinyl: number;
let cameras: number;

const json = (cookie?: string) => (cookie ? { cookie } : {});

async function addProduct(cookie: string, body: Record<string, unknown>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/products',
    headers: json(cookie),
    payload: { condition: 'new', categoryId: vinyl, priceCents: 1000, ...body },
  });
  if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json();
}

beforeAll(async () => {
  t = await buildTestApp();
  const categories = await t.database.pool.query(
    `insert into categories (name, slug) values ('Vinyl & Records', 'vinyl-records'), ('Cameras & Film', 'cameras-film')
     returning id`,
  );
  vinyl = categories.rows[0].id;
  cameras = categories.rows[1].id;
  seller = await signUp(t.app, { businessName: 'Groove Vault' });
  other = await signUp(t.app);
  await addProduct(seller.cookie, {
    title: 'Blue Note jazz vinyl LP',
    description: 'Original pressing',
    priceCents: 4500,
    condition: 'used',
  });
  await addProduct(seller.cookie, {
    title: 'Ambient cassette',
    description: 'vinyl rip on tape',
    priceCents: 900,
  });
  await addProduct(seller.cookie, {
    title: 'Leica rangefinder camera',
    categoryId: cameras,
    priceCents: 250000,
    condition: 'refurbished',
  });
  await addProduct(other.cookie, { title: 'Disco vinyl twelve inch', priceCents: 1500 });
  for (let i = 0; i < 22; i++)
    await addProduct(other.cookie, {
      title: `Film roll pack ${i}`,
      categoryId: cameras,
      priceCents: 500 + i,
    });
});
afterAll(async () => {
  await t.close();
});

const explore = (query: string) => t.app.inject({ url: `/api/explore?${query}` });

describe('GET /api/explore', () => {
  it('lists newest first with a page of 20 and pagination totals', async () => {
    const response = await explore('');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.products).toHaveLength(20);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 26, totalPages: 2, totalIsEstimate: false });
    const dates = body.products.map((p: { createdAt: string }) => p.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.products[0].seller).toMatchObject({ handle: other.handle });
    expect(body.live).toEqual([]);
  });

  it('returns an empty page past the end', async () => {
    const body = (await explore('page=9')).json();
    expect(body.products).toEqual([]);
    expect(body.pagination.total).toBe(26);
  });

  it('caps limit at 100', async () => {
    expect((await explore('limit=500')).json().pagination.limit).toBe(100);
  });

  it('filters by category, condition and a price range in dollars', async () => {
    const body = (await explore(`category=${vinyl}&condition=used&minPrice=10&maxPrice=50.5`)).json();
    expect(body.products.map((p: { title: string }) => p.title)).toEqual(['Blue Note jazz vinyl LP']);
  });

  it('sorts by price both ways', async () => {
    const low = (await explore(`category=${cameras}&sort=price_low&limit=100`)).json().products;
    const prices = low.map((p: { priceCents: number }) => p.priceCents);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const high = (await explore('sort=price_high&limit=1')).json().products;
    expect(high[0].title).toBe('Leica rangefinder camera');
  });

  it('ranks a title match above a description match for relevance', async () => {
    const body = (await explore('search=vinyl&sort=relevance')).json();
    const titles = body.products.map((p: { title: string }) => p.title);
    expect(titles).toHaveLength(3);
    expect(titles.at(-1)).toBe('Ambient cassette'); // only its description says vinyl
  });

  it('falls back to typo-tolerant matching when full-text finds nothing', async () => {
    const body = (await explore('search=rangefindr')).json();
    expect(body.products.map((p: { title: string }) => p.title)).toEqual(['Leica rangefinder camera']);
  });

  it('treats search text as data, never as SQL or query syntax', async () => {
    for (const search of ["'; drop table products; --", '!!! & | :*', '"unclosed', 'a'.repeat(200)]) {
      const response = await explore(`search=${encodeURIComponent(search)}`);
      expect(response.statusCode).toBe(200);
    }
    expect((await explore('')).json().pagination.total).toBe(26);
  });

  it.each([
    ['page=abc', 'page'],
    ['page=0', 'page'],
    ['page=1.5', 'page'],
    ['limit=-1', 'limit'],
    ['category=vinyl', 'category'],
    ['condition=mint', 'condition'],
    ['minPrice=cheap', 'minPrice'],
    ['maxPrice=-3', 'maxPrice'],
    ['sort=random', 'sort'],
    [`search=${'x'.repeat(201)}`, 'search'],
    ['minPrice=50&maxPrice=10', 'maxPrice'],
  ])('answers garbage query %# with 400 naming the field', async (query, field) => {
    const response = await explore(query);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toContain(field);
  });
});

describe('GET /api/facets', () => {
  it('counts every category and condition', async () => {
    const body = (await t.app.inject({ url: '/api/facets' })).json();
    expect(body.categories).toEqual([
      { id: cameras, name: 'Cameras & Film', slug: 'cameras-film', productCount: 23 },
      { id: vinyl, name: 'Vinyl & Records', slug: 'vinyl-records', productCount: 3 },
    ]);
    expect(body.conditions).toEqual([
      { condition: 'new', productCount: 24 },
      { condition: 'used', productCount: 1 },
      { condition: 'refurbished', productCount: 1 },
    ]);
  });

  it('reflects the search and the other filters, but not its own', async () => {
    const body = (
      await t.app.inject({ url: `/api/facets?search=vinyl&category=${cameras}&condition=new` })
    ).json();
    const counts = Object.fromEntries(
      body.categories.map((c: { slug: string; productCount: number }) => [c.slug, c.productCount]),
    );
    expect(counts).toEqual({ 'vinyl-records': 2, 'cameras-film': 0 });
    expect(body.conditions.find((c: { condition: string }) => c.condition === 'used').productCount).toBe(0);
  });

  it('answers a bad filter with 400', async () => {
    expect((await t.app.inject({ url: '/api/facets?condition=shiny' })).statusCode).toBe(400);
  });
});

describe('products', () => {
  const valid = () => ({ title: 'Test pressing', priceCents: 2599, condition: 'new', categoryId: vinyl });

  it('creates a product for the signed-in seller and reads it back', async () => {
    // An image the seller uploaded (POST /api/uploads/product-image records its owner).
    await t.database.pool.query(
      `insert into uploads (key, owner_id) values ('uploads/0b7c5f3e-6f55-4a39-9d7e-3c2a7c4b8b21.webp', $1)`,
      [seller.user.id],
    );
    const created = await addProduct(seller.cookie, {
      ...valid(),
      description: '  Limited  ',
      imageUrl: '/media/uploads/0b7c5f3e-6f55-4a39-9d7e-3c2a7c4b8b21.webp',
      stock: 3,
    });
    expect(created).toMatchObject({
      title: 'Test pressing',
      description: 'Limited',
      priceCents: 2599,
      stock: 3,
    });
    expect(created.seller.handle).toBe(seller.handle);
    const read = await t.app.inject({ url: `/api/products/${created.id}` });
    expect(read.json()).toEqual(created);
  });

  it('needs a signed-in user to create', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/products', payload: valid() });
    expect(response.statusCode).toBe(401);
  });

  it.each([
    [{ title: '' }, 'title'],
    [{ title: 'x'.repeat(201) }, 'title'],
    [{ description: 'x'.repeat(5001) }, 'description'],
    [{ priceCents: 10.5 }, 'priceCents'],
    [{ priceCents: -1 }, 'priceCents'],
    [{ priceCents: 10_000_001 }, 'priceCents'],
    [{ priceCents: '100' }, 'priceCents'],
    [{ priceCents: 0 }, 'priceCents'],
    [{ priceCents: undefined }, 'priceCents'],
    [{ stock: -3 }, 'stock'],
    [{ condition: 'mint' }, 'condition'],
    [{ categoryId: 999_999 }, 'categoryId'],
    [{ imageUrl: 'javascript:alert(1)' }, 'imageUrl'],
    [{ imageUrl: 'ftp://x/y.png' }, 'imageUrl'],
  ])('rejects bad product body %# with 400 naming the field', async (override, field) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: json(seller.cookie),
      payload: { ...valid(), ...override },
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toContain(field);
  });

  it('refuses an update to a $0 or missing price, or a negative stock, naming the field', async () => {
    const product = await addProduct(seller.cookie, { ...valid(), stock: 4 });
    for (const [override, field] of [
      [{ priceCents: 0 }, 'priceCents'],
      [{ priceCents: undefined }, 'priceCents'],
      [{ stock: -3 }, 'stock'],
    ] as const) {
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/products/${product.id}`,
        headers: json(seller.cookie),
        payload: { ...valid(), ...override },
      });
      expect(response.statusCode, field).toBe(400);
      expect(Object.keys(response.json().fields)).toEqual([field]);
    }
    expect((await t.app.inject({ url: `/api/products/${product.id}` })).json()).toMatchObject({
      priceCents: 2599,
      stock: 4,
    });
  });

  it('lets only the owner update; others get 404 and the product is unchanged', async () => {
    const product = await addProduct(seller.cookie, valid());
    const foreign = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${product.id}`,
      headers: json(other.cookie),
      payload: { ...valid(), title: 'Hijacked', priceCents: 1 },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/products/${product.id}` })).json().title).toBe('Test pressing');
    const own = await t.app.inject({
      method: 'PUT',
      url: `/api/products/${product.id}`,
      headers: json(seller.cookie),
      payload: { ...valid(), title: 'Renamed', priceCents: 3100, categoryId: cameras },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ title: 'Renamed', priceCents: 3100, categoryId: cameras });
  });

  it('lets only the owner delete; others get 404 and the product stays', async () => {
    const product = await addProduct(seller.cookie, valid());
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/products/${product.id}`,
      headers: json(other.cookie),
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/products/${product.id}` })).statusCode).toBe(200);
    const own = await t.app.inject({
      method: 'DELETE',
      url: `/api/products/${product.id}`,
      headers: json(seller.cookie),
    });
    expect(own.statusCode).toBe(204);
    expect((await t.app.inject({ url: `/api/products/${product.id}` })).statusCode).toBe(404);
  });

  it('answers a malformed id with 400 and a missing one with 404', async () => {
    expect((await t.app.inject({ url: '/api/products/not-a-uuid' })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ url: '/api/products/00000000-0000-4000-8000-000000000000' })).statusCode,
    ).toBe(404);
    const missingPut = await t.app.inject({
      method: 'PUT',
      url: '/api/products/00000000-0000-4000-8000-000000000000',
      headers: json(seller.cookie),
      payload: valid(),
    });
    expect(missingPut.statusCode).toBe(404);
  });

  it('lists only the caller’s own products under /mine', async () => {
    const mine = (await t.app.inject({ url: '/api/products/mine', headers: json(other.cookie) })).json();
    expect(mine.length).toBe(23);
    expect(mine.every((p: { seller: { handle: string } }) => p.seller.handle === other.handle)).toBe(true);
    expect((await t.app.inject({ url: '/api/products/mine' })).statusCode).toBe(401);
  });
});

describe('analytics, orders and streams of the caller', () => {
  it('counts only the caller’s own sales and catalogue', async () => {
    const buyer = await signUp(t.app);
    const { rows } = await t.database.pool.query('select id from products where seller_id = $1 limit 1', [
      seller.user.id,
    ]);
    await t.database.pool.query(
      `insert into orders (buyer_id, seller_id, product_id, amount_cents) values ($1, $2, $3, 4500), ($1, $2, $3, 900)`,
      [buyer.user.id, seller.user.id, rows[0].id],
    );
    await t.database.pool.query(
      `insert into streams (owner_id, room_name, title, duration_sec, view_count, vod_url)
       values ($1, 'room-a', 'Crate digging', 99, 17, '/media/vods/a.webm')`,
      [seller.user.id],
    );
    const sellerStats = (await t.app.inject({ url: '/api/analytics', headers: json(seller.cookie) })).json();
    expect(sellerStats).toMatchObject({ totalOrders: 2, totalRevenue: 5400, totalViews: 17 });
    const otherStats = (await t.app.inject({ url: '/api/analytics', headers: json(other.cookie) })).json();
    expect(otherStats).toEqual({
      totalViews: 0,
      totalOrders: 0,
      totalRevenue: 0,
      totalProducts: 23,
      totalPurchases: 0,
    });
    const buyerStats = (await t.app.inject({ url: '/api/analytics', headers: json(buyer.cookie) })).json();
    expect(buyerStats).toMatchObject({ totalOrders: 0, totalRevenue: 0, totalPurchases: 2 });

    const sellerOrders = (await t.app.inject({ url: '/api/orders', headers: json(seller.cookie) })).json();
    expect(sellerOrders.map((o: { amountCents: number }) => o.amountCents).sort()).toEqual(
      [4500, 900].sort(),
    );
    expect(sellerOrders.every((o: { role: string }) => o.role === 'seller')).toBe(true);
    const buyerOrders = (await t.app.inject({ url: '/api/orders', headers: json(buyer.cookie) })).json();
    expect(buyerOrders.every((o: { role: string }) => o.role === 'buyer')).toBe(true);
    expect((await t.app.inject({ url: '/api/orders', headers: json(other.cookie) })).json()).toEqual([]);

    const streams = (await t.app.inject({ url: '/api/streams/mine', headers: json(seller.cookie) })).json();
    expect(streams).toHaveLength(1);
    expect((await t.app.inject({ url: '/api/streams/mine', headers: json(other.cookie) })).json()).toEqual(
      [],
    );
    for (const url of ['/api/analytics', '/api/orders', '/api/streams/mine']) {
      expect((await t.app.inject({ url })).statusCode).toBe(401);
    }
  });
});

describe('GET /api/storefront/:handle', () => {
  it('shows the seller’s profile, products and replays', async () => {
    const response = await t.app.inject({ url: `/api/storefront/@${seller.handle.toUpperCase()}` });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toMatchObject({ handle: seller.handle, businessName: 'Groove Vault' });
    expect(body.user).not.toHaveProperty('email');
    expect(
      body.products.every((p: { seller: { handle: string } }) => p.seller.handle === seller.handle),
    ).toBe(true);
    expect(body.stats.productCount).toBe(body.products.length);
    expect(body.streams.every((s: { vodUrl: string | null }) => s.vodUrl)).toBe(true);
  });

  it('counts the products each replay features', async () => {
    const mine = (await t.app.inject({ url: '/api/products/mine', headers: json(seller.cookie) })).json();
    const call = (url: string, payload?: object) =>
      t.app.inject({ method: 'POST', url, headers: json(seller.cookie), ...(payload ? { payload } : {}) });
    const replay = async (pins: string[]) => {
      const room = (await call('/api/rooms', { title: 'Replay with products' })).json().roomName;
      await call(`/api/streams/${room}/start`);
      for (const productId of pins) {
        expect((await call(`/api/streams/${room}/lineup`, { productId })).statusCode).toBe(200);
        expect((await call(`/api/streams/${room}/pins`, { productId })).statusCode).toBe(200);
      }
      await call(`/api/streams/${room}/end`);
      // The recording is finalised by the media relay; here it is simply declared.
      await t.database.pool.query(
        `update streams set vod_url = '/media/vods/test.webm' where room_name = $1`,
        [room],
      );
      return room;
    };
    const twoProducts = await replay([mine[0].id, mine[1].id]);
    const none = await replay([]);

    const body = (await t.app.inject({ url: `/api/storefront/${seller.handle}` })).json();
    const featured = (room: string) =>
      body.streams.find((s: { roomName: string }) => s.roomName === room)?.featuredProducts;
    expect(featured(twoProducts)).toBe(2);
    expect(featured(none)).toBe(0);
  });

  it('answers 404 for a handle that does not exist', async () => {
    const response = await t.app.inject({ url: '/api/storefront/nobody_here' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('The user @nobody_here does not exist or has no storefront.');
  });
});

describe('POST /api/uploads/product-image', () => {
  function multipart(field: string, filename: string, type: string, content: Buffer) {
    const boundary = '----streamshop-test';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    return {
      payload: Buffer.concat([head, content, tail]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    };
  }
  const png = () =>
    sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#a855f7' } })
      .png()
      .toBuffer();

  it('re-encodes a PNG to a WebP of at most 1200 px and serves it', async () => {
    const body = multipart('image', 'cover.png', 'image/png', await png());
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/product-image',
      payload: body.payload,
      headers: { ...body.headers, cookie: seller.cookie },
    });
    expect(response.statusCode).toBe(201);
    const { url } = response.json();
    expect(url).toMatch(/^\/media\/uploads\/[0-9a-f-]+\.webp$/);
    const served = await t.app.inject({ url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toContain('max-age');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1200, height: 800 });
  });

  it('refuses signed-out callers, non-images, wrong types and missing files', async () => {
    const good = multipart('image', 'cover.png', 'image/png', await png());
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/uploads/product-image', ...good });
    expect(anonymous.statusCode).toBe(401);
    const cases = [
      multipart('image', 'fake.png', 'image/png', Buffer.from('not an image at all')),
      multipart('image', 'doc.pdf', 'application/pdf', Buffer.from('%PDF-1.4')),
      multipart('photo', 'cover.png', 'image/png', await png()),
    ];
    for (const c of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/uploads/product-image',
        payload: c.payload,
        headers: { ...c.headers, cookie: seller.cookie },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toHaveProperty('image');
    }
  });

  it('answers a file over 5 MB with 413', async () => {
    const big = multipart('image', 'big.png', 'image/png', Buffer.alloc(5 * 1024 * 1024 + 10, 1));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/product-image',
      payload: big.payload,
      headers: { ...big.headers, cookie: seller.cookie },
    });
    expect(response.statusCode).toBe(413);
  });
});
