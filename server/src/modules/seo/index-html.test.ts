import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_DESCRIPTION, PAGE_META, ROOM_SHELL } from '@streamshop/contract/seo.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { injectHead } from './index-html.ts';

const PUBLIC_URL = 'https://shop.example.com';

// Shaped like the index.html Vite builds from web/index.html.
const INDEX_HTML = `<!doctype html>
<html lang="en" class="dark">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta
      name="description"
      content="StreamShop: shop live streams from independent artists, labels, creators and businesses."
    />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <title>StreamShop</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

const webDist = mkdtempSync(path.join(tmpdir(), 'ss-web-seo-'));
mkdirSync(path.join(webDist, 'assets'));
writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ publicUrl: PUBLIC_URL }, { webDist });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** Every <meta> / <link> / <title> in the head, as the parser of a crawler would list them. */
function head(html: string) {
  const headHtml = html.slice(0, html.indexOf('</head>'));
  const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}="([^"]*)"`))?.[1];
  const tags = [...headHtml.matchAll(/<(meta|link)\s[^>]*>/g)].map((m) => m[0]);
  const titles = [...headHtml.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);
  const metas = (key: string) =>
    tags
      .filter((tag) => attr(tag, 'name') === key || attr(tag, 'property') === key)
      .map((tag) => attr(tag, 'content'));
  const canonical = tags.filter((tag) => attr(tag, 'rel') === 'canonical').map((tag) => attr(tag, 'href'));
  return { titles, metas, canonical };
}

describe('index.html for a marketing route', () => {
  it('GET /stream-disc/music carries its own title, description, canonical URL and Open Graph tags', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/stream-disc/music' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const meta = PAGE_META['/stream-disc/music'];
    const { titles, metas, canonical } = head(response.body);
    // '&' in 'CDs & Vinyl' arrives escaped.
    expect(titles).toEqual([meta.title.replace('&', '&amp;')]);
    expect(response.body).toContain(
      '<title>Stream Disc Music Edition: A Modern Alternative to CDs &amp; Vinyl · StreamShop</title>',
    );
    expect(metas('description')).toEqual([meta.description]);
    expect(canonical).toEqual([`${PUBLIC_URL}/stream-disc/music`]);
    expect(metas('og:url')).toEqual([`${PUBLIC_URL}/stream-disc/music`]);
    expect(metas('og:title')).toEqual([meta.title.replace('&', '&amp;')]);
    expect(metas('og:description')).toEqual([meta.description]);
    expect(metas('og:type')).toEqual(['website']);
    expect(metas('og:image')).toEqual([`${PUBLIC_URL}/og-image.png`]);
    expect(metas('og:image:width')).toEqual(['1200']);
    expect(metas('og:image:height')).toEqual(['630']);
    // The rest of the document is untouched.
    expect(response.body).toContain(
      '<script type="module" crossorigin src="/assets/index-abc123.js"></script>',
    );
    expect(response.body).toContain('<meta charset="UTF-8" />');
    expect(response.body).toContain('<div id="root"></div>');
  });

  it.each([
    ['/', `${PUBLIC_URL}/`],
    ['/about/', `${PUBLIC_URL}/about`],
    ['/stream-disc?preorder=success', `${PUBLIC_URL}/stream-disc`],
  ])('GET %s names the canonical URL %s', async (url, expected) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(head(response.body).canonical).toEqual([expected]);
    expect(head(response.body).metas('og:url')).toEqual([expected]);
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await t.app.inject({ method: 'HEAD', url: '/about' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe('');
  });

  it('serves other SPA routes the plain index.html', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/signin' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(INDEX_HTML);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('serves a room the room shell, which preloads the room page, and the plain index.html without one', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    expect((await get('/room/crate-digging')).body).toBe(INDEX_HTML);
    const roomShell = INDEX_HTML.replace(
      '</head>',
      '<link rel="modulepreload" crossorigin href="/assets/room-page-abc123.js">\n</head>',
    );
    const file = path.join(webDist, ROOM_SHELL);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, roomShell);
    try {
      const room = await get('/room/crate-digging?path=hls');
      expect(room.statusCode).toBe(200);
      expect(room.body).toBe(roomShell);
      expect(room.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(room.headers['cache-control']).toBe('no-cache');
      expect(room.headers.vary).toBe('accept-encoding');
      // Not a room's address: the plain shell.
      expect((await get('/room/crate-digging/extra')).body).toBe(INDEX_HTML);
      expect((await get('/room/')).body).toBe(INDEX_HTML);
    } finally {
      rmSync(file);
    }
  });
});

describe('injectHead', () => {
  it('escapes everything it writes', () => {
    const html = injectHead(INDEX_HTML, 'https://x.test/"><script>alert(1)</script>', '/about');
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('href="https://x.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;/about"');
  });

  it('is idempotent: a second pass leaves one of each tag', () => {
    const once = injectHead(INDEX_HTML, PUBLIC_URL, '/team');
    const twice = injectHead(once, PUBLIC_URL, '/team');
    expect(twice).toBe(once);
    expect(head(once).titles).toHaveLength(1);
    expect(head(once).metas('description')).toHaveLength(1);
  });

  it('adds the tags at the end of the head when index.html has no title', () => {
    const html = injectHead('<html><head><meta charset="UTF-8"></head><body></body></html>', PUBLIC_URL, '/');
    expect(html.indexOf('<title>')).toBeGreaterThan(html.indexOf('charset'));
    expect(html.indexOf('<title>')).toBeLessThan(html.indexOf('</head>'));
  });

  it('keeps web/index.html and the default description of contract/src/seo.ts in step', () => {
    const source = readFileSync(new URL('../../../../web/index.html', import.meta.url), 'utf8');
    expect(source).toContain(`content="${DEFAULT_DESCRIPTION}"`);
  });
});
