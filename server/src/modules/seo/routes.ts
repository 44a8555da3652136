import { absoluteUrl, PUBLIC_PATHS } from '@streamshop/contract/seo.ts';
import type { FastifyPluginAsync } from 'fastify';
import { escapeXml } from './escape.ts';

/** robots.txt: everything may be crawled; the sitemap says where to start. */
export function robotsTxt(publicUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(publicUrl, '/sitemap.xml')}\n`;
}

/** sitemap.xml (sitemaps.org 0.9) of the public marketing routes, as absolute URLs on PUBLIC_URL. */
export function sitemapXml(publicUrl: string): string {
  const urls = PUBLIC_PATHS.map(
    (path) => `  <url><loc>${escapeXml(absoluteUrl(publicUrl, path))}</loc></url>\n`,
  ).join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}</urlset>\n`
  );
}

const CACHE = 'public, max-age=3600';

export const seoRoutes: FastifyPluginAsync<{ publicUrl: string }> = async (app, { publicUrl }) => {
  const robots = robotsTxt(publicUrl);
  const sitemap = sitemapXml(publicUrl);
  app.get('/robots.txt', async (_request, reply) =>
    reply.header('cache-control', CACHE).type('text/plain; charset=utf-8').send(robots),
  );
  app.get('/sitemap.xml', async (_request, reply) =>
    reply.header('cache-control', CACHE).type('application/xml; charset=utf-8').send(sitemap),
  );
};
