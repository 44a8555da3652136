import { PUBLIC_PATHS } from '@streamshop/contract/seo.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { sitemapXml } from './routes.ts';

const PUBLIC_URL = 'https://shop.example.com';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ publicUrl: PUBLIC_URL });
});
afterAll(async () => {
  await t.close();
});

describe('GET /robots.txt', () => {
  it('allows every crawler everywhere and points to the sitemap', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${PUBLIC_URL}/sitemap.xml\n`);
  });
});

describe('GET /sitemap.xml', () => {
  it('lists every public marketing route as an absolute URL on PUBLIC_URL', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(response.body).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...response.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      `${PUBLIC_URL}/`,
      `${PUBLIC_URL}/stream-disc`,
      `${PUBLIC_URL}/stream-disc/music`,
      `${PUBLIC_URL}/stream-disc/film`,
      `${PUBLIC_URL}/social`,
      `${PUBLIC_URL}/mission`,
      `${PUBLIC_URL}/social-impact`,
      `${PUBLIC_URL}/about`,
      `${PUBLIC_URL}/team`,
      `${PUBLIC_URL}/blog`,
      `${PUBLIC_URL}/explore`,
      `${PUBLIC_URL}/help`,
      `${PUBLIC_URL}/contact`,
      `${PUBLIC_URL}/privacy`,
      `${PUBLIC_URL}/terms`,
    ]);
    expect(locs).toHaveLength(PUBLIC_PATHS.length);
  });

  it('escapes the URLs and ignores a trailing slash on PUBLIC_URL', () => {
    const xml = sitemapXml('https://x.test/?a=1&b=<2>/');
    expect(xml).toContain('<loc>https://x.test/?a=1&amp;b=&lt;2&gt;/about</loc>');
    expect(sitemapXml('https://x.test/')).toContain('<loc>https://x.test/</loc>');
  });
});
