import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProduct } from '../../test/payments.ts';
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

const webDist = mkdtempSync(path.join(tmpdir(), 'ss-web-show-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);

/** A title written to break out of the JSON-LD script and the attributes. */
const NASTY_TITLE = 'Crate "digs" </script><script>alert(1)</script> & more';
const COVER = '/media/uploads/5d0c1e4a-2b3c-4d5e-8f90-1a2b3c4d5e6f.webp';

let t: TestApp;
let seller: Awaited<ReturnType<typeof signUp>>;
beforeAll(async () => {
  t = await buildTestApp({ publicUrl: PUBLIC_URL }, { webDist, autoEnd: false, paymentJobs: false });
  seller = await signUp(t.app, { businessName: 'Groove Vault' });
  // A cover the seller uploaded (POST /api/uploads/product-image records its owner).
  await t.database.pool.query('insert into uploads (key, owner_id) values ($1, $2)', [
    COVER.replace('/media/', ''),
    seller.user.id,
  ]);
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function schedule(body: Record<string, unknown>): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/shows',
    headers: { cookie: seller.cookie },
    payload: { title: 'Friday digs', startsAt: inDays(2), timeZone: 'UTC', ...body },
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

describe('GET /shows/:id', () => {
  it('carries the show’s title, description, Open Graph tags and schema.org Event, escaped', async () => {
    const startsAt = inDays(2);
    const product = await listProduct(t, seller.cookie, { title: 'Kind of Blue' });
    const id = await schedule({
      title: NASTY_TITLE,
      description: 'Rare   jazz.\nBring <your> wallet & friends.',
      startsAt,
      timeZone: 'America/Chicago',
      coverUrl: COVER,
      productIds: [product.id],
    });
    const response = await t.app.inject({ method: 'GET', url: `/shows/${id}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const { titles, metas, canonical, jsonLd, headHtml } = head(response.body);
    const escapedTitle =
      'Crate &quot;digs&quot; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; more';
    expect(titles).toEqual([`${escapedTitle} · StreamShop`]);
    const [description] = metas('description');
    // The start in the seller's zone, then the description on one line, escaped.
    expect(description).toMatch(
      new RegExp(
        `^Live show with @${seller.handle} on StreamShop, \\w{3}, \\w{3} \\d+, \\d{4}, \\d+:\\d{2} [AP]M C[SD]T\\. `,
      ),
    );
    expect(description).toMatch(/ Rare jazz\. Bring &lt;your&gt; wallet &amp; friends\.$/);
    const url = `${PUBLIC_URL}/shows/${id}`;
    expect(canonical).toEqual([url]);
    expect(metas('og:type')).toEqual(['website']);
    expect(metas('og:title')).toEqual([escapedTitle]);
    expect(metas('og:description')).toEqual([description]);
    expect(metas('og:url')).toEqual([url]);
    expect(metas('og:image')).toEqual([`${PUBLIC_URL}${COVER}`]);
    expect(metas('twitter:card')).toEqual(['summary_large_image']);

    // Nothing the seller typed ends a script or opens an element.
    expect(response.body).not.toContain('<script>alert(1)');
    expect(headHtml.match(/<\/script>/g)).toHaveLength(2); // the app's module and the JSON-LD
    const start = new Date(startsAt);
    expect(jsonLd).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'Event',
        name: NASTY_TITLE,
        description: 'Rare   jazz.\nBring <your> wallet & friends.',
        startDate: start.toISOString(),
        endDate: new Date(start.getTime() + 3_600_000).toISOString(),
        eventStatus: 'https://schema.org/EventScheduled',
        eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
        location: { '@type': 'VirtualLocation', url },
        image: [`${PUBLIC_URL}${COVER}`],
        url,
        isAccessibleForFree: true,
        organizer: { '@type': 'Organization', name: 'Groove Vault', url: `${PUBLIC_URL}/s/${seller.handle}` },
      },
    ]);
    // The rest of the shell is untouched: the app renders the page.
    expect(response.body).toContain(
      '<script type="module" crossorigin src="/assets/index-abc123.js"></script>',
    );
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('falls back to the site’s picture for a show without a cover, and says when a show was missed', async () => {
    const id = await schedule({ title: 'No cover', startsAt: inDays(1) });
    const first = head((await t.app.inject({ method: 'GET', url: `/shows/${id}/` })).body);
    expect(first.metas('og:image')).toEqual([`${PUBLIC_URL}/og-image.png`]);
    // Without a description of its own, the page's summary describes it.
    expect(first.jsonLd[0].description).toBe(first.metas('description')[0]);

    await t.database.pool.query(`update shows set status = 'missed' where id = $1`, [id]);
    const missed = head((await t.app.inject({ method: 'GET', url: `/shows/${id}` })).body);
    expect(missed.jsonLd[0].eventStatus).toBe('https://schema.org/EventCancelled');
    expect(missed.metas('description')[0]).toMatch(/^Show with @\S+ on StreamShop, planned for /);
  });

  it.each([
    ['an unknown id', '/shows/00000000-0000-4000-8000-000000000000'],
    ['a malformed id', '/shows/not-a-show'],
  ])('answers 404 with a Show Not Found head, kept out of search results, for %s', async (_, url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const { titles, metas, jsonLd } = head(response.body);
    expect(titles).toEqual(['Show Not Found · StreamShop']);
    expect(metas('robots')).toEqual(['noindex']);
    expect(metas('og:type')).toEqual([]);
    expect(jsonLd).toEqual([]);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('compresses the page for a client that takes it', async () => {
    const id = await schedule({ title: 'Compressed', startsAt: inDays(3) });
    const response = await t.app.inject({
      method: 'GET',
      url: `/shows/${id}`,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toContain('<title>Compressed · StreamShop</title>');
  });

  it('leaves other paths under /shows to the app', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/shows' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX_HTML);
  });
});
