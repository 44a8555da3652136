import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCategory } from '../../test/payments.ts';
import { buildTestApp, signUp, type TestApp } from '../../test/test-app.ts';

const PUBLIC_URL = 'https://shop.example.com';

// Shaped like the index.html Vite builds from web/index.html.
const INDEX_HTML = `<!doctype html>
<html lang="en" class="dark">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="StreamShop: shop live streams from independent artists, labels, creators and businesses."
    />
    <title>StreamShop</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

const webDist = mkdtempSync(path.join(tmpdir(), 'ss-web-product-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);

/** A title written to break out of the JSON-LD script and the attributes. */
const NASTY_TITLE = 'Jazz "LP" </script><script>alert(1)</script> & more';

let t: TestApp;
let seller: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  t = await buildTestApp({ publicUrl: PUBLIC_URL }, { webDist });
  seller = await signUp(t.app, { businessName: 'Groove Vault' });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

async function listProduct(body: Record<string, unknown>): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/products',
    headers: { cookie: seller.cookie },
    payload: { condition: 'used', categoryId: await ensureCategory(t), priceCents: 2500, stock: 2, ...body },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

/** The head as a crawler's parser lists it: titles, meta values by name/property, JSON-LD blocks. */
function head(html: string) {
  const headHtml = html.slice(0, html.indexOf('</head>'));
  const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
  const tags = [...headHtml.matchAll(/<(meta|link)\s[^>]*>/g)].map((m) => m[0]);
  const metas = (key: string) =>
    tags
      .filter((tag) => attr(tag, 'name') === key || attr(tag, 'property') === key)
      .map((tag) => attr(tag, 'content'));
  const titles = [...headHtml.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
  const canonical = tags.filter((tag) => attr(tag, 'rel') === 'canonical').map((tag) => attr(tag, 'href'));
  // As an HTML parser reads a script: up to the first '</script'.
  const jsonLd = [...headHtml.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script/g)].map(
    (m) => JSON.parse(m[1] ?? ''),
  );
  return { titles, metas, canonical, jsonLd, headHtml };
}

describe('GET /products/:id', () => {
  it('carries the product’s title, description, Open Graph tags and schema.org Product, escaped', async () => {
    const id = await listProduct({
      title: NASTY_TITLE,
      description: 'Original   1963 pressing.\nPlays <clean> & loud.',
      imageUrl: '/media/seed/products/blue-note.svg',
      fulfillment: 'ship',
      shippingCents: 450,
    });
    const response = await t.app.inject({ method: 'GET', url: `/products/${id}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const { titles, metas, canonical, jsonLd, headHtml } = head(response.body);
    const escapedTitle =
      'Jazz &quot;LP&quot; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; more';
    expect(titles).toEqual([`${escapedTitle} · StreamShop`]);
    const description = `$25.00 · Used · from @${seller.handle} on StreamShop. Original 1963 pressing. Plays &lt;clean&gt; &amp; loud.`;
    expect(metas('description')).toEqual([description]);
    const url = `${PUBLIC_URL}/products/${id}`;
    expect(canonical).toEqual([url]);
    expect(metas('og:type')).toEqual(['product']);
    expect(metas('og:title')).toEqual([escapedTitle]);
    expect(metas('og:description')).toEqual([description]);
    expect(metas('og:url')).toEqual([url]);
    expect(metas('og:image')).toEqual([`${PUBLIC_URL}/media/seed/products/blue-note.svg`]);
    expect(metas('product:price:amount')).toEqual(['25.00']);
    expect(metas('product:price:currency')).toEqual(['USD']);

    // Nothing the seller typed ends a script or opens an element.
    expect(response.body).not.toContain('<script>alert(1)');
    expect(headHtml.match(/<\/script>/g)).toHaveLength(2); // the app's module and the JSON-LD
    expect(jsonLd).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: NASTY_TITLE,
        description: 'Original   1963 pressing.\nPlays <clean> & loud.',
        image: [`${PUBLIC_URL}/media/seed/products/blue-note.svg`],
        sku: id,
        productID: id,
        url,
        itemCondition: 'https://schema.org/UsedCondition',
        offers: {
          '@type': 'Offer',
          price: '25.00',
          priceCurrency: 'USD',
          availability: 'https://schema.org/InStock',
          itemCondition: 'https://schema.org/UsedCondition',
          url,
          seller: { '@type': 'Organization', name: 'Groove Vault', url: `${PUBLIC_URL}/s/${seller.handle}` },
          shippingDetails: {
            '@type': 'OfferShippingDetails',
            shippingRate: { '@type': 'MonetaryAmount', value: '4.50', currency: 'USD' },
          },
        },
      },
    ]);
    // The rest of the shell is untouched: the app renders the page.
    expect(response.body).toContain(
      '<script type="module" crossorigin src="/assets/index-abc123.js"></script>',
    );
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('says OutOfStock once none is left, and keeps an image elsewhere as it is', async () => {
    const id = await listProduct({
      title: 'Last copy',
      stock: 0,
      priceCents: 123456,
      imageUrl: 'https://images.example.org/lp.jpg',
      fulfillment: 'digital',
    });
    const { metas, jsonLd } = head((await t.app.inject({ method: 'GET', url: `/products/${id}` })).body);
    expect(metas('og:image')).toEqual(['https://images.example.org/lp.jpg']);
    expect(jsonLd[0].offers).toMatchObject({
      price: '1234.56',
      availability: 'https://schema.org/OutOfStock',
    });
    expect(jsonLd[0].offers).not.toHaveProperty('shippingDetails');
    // Without a description of its own, the page's summary describes it.
    expect(jsonLd[0].description).toBe(`$1,234.56 · Used · from @${seller.handle} on StreamShop.`);
  });

  it('falls back to the site’s picture for a product without one', async () => {
    const id = await listProduct({ title: 'No picture' });
    const { metas } = head((await t.app.inject({ method: 'GET', url: `/products/${id}/` })).body);
    expect(metas('og:image')).toEqual([`${PUBLIC_URL}/og-image.png`]);
  });

  it.each([
    ['an unknown id', '/products/00000000-0000-4000-8000-000000000000'],
    ['a malformed id', '/products/not-a-product'],
  ])('answers 404 with a Product Not Found head, kept out of search results, for %s', async (_, url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const { titles, metas, jsonLd } = head(response.body);
    expect(titles).toEqual(['Product Not Found · StreamShop']);
    expect(metas('robots')).toEqual(['noindex']);
    expect(metas('og:type')).toEqual([]);
    expect(jsonLd).toEqual([]);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('answers 404 for a product taken out of the catalogue', async () => {
    const id = await listProduct({ title: 'Retired' });
    await t.database.pool.query('update products set unlisted_at = now() where id = $1', [id]);
    expect((await t.app.inject({ method: 'GET', url: `/products/${id}` })).statusCode).toBe(404);
  });

  it('compresses the page for a client that takes it', async () => {
    const id = await listProduct({ title: 'Compressed' });
    const response = await t.app.inject({
      method: 'GET',
      url: `/products/${id}`,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('accept-encoding');
    expect(gunzipSync(response.rawPayload).toString()).toContain('<title>Compressed · StreamShop</title>');
  });

  it('leaves other paths under /products to the app', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/products' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX_HTML);
  });
});
