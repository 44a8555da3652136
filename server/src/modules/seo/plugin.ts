import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../platform/errors.ts';
import { modulePlugin, type Platform } from '../../platform/module-plugin.ts';
import { findProductPage } from '../catalog/service.ts';
import { findShow } from '../shows/service.ts';
import { sendSpaIndex } from './index-html.ts';
import { productIdOfPath, sendProductHtml } from './product-html.ts';
import { seoRoutes } from './routes.ts';
import { sendShowHtml, showIdOfPath } from './show-html.ts';

export const WEB_DIST = fileURLToPath(new URL('../../../../web/dist', import.meta.url));

/**
 * The site's pages: robots.txt and the sitemap, the built web app's files, and every other GET
 * answered by the SPA's index (with the route's head, prerendered where it was; a product page's
 * head from the catalogue, a show's from the shows). Unknown API paths are 404. Registered last:
 * its not-found handler is the app's.
 */
export const seoPlugin = modulePlugin('seo', async (app, p) => {
  await app.register(seoRoutes, { publicUrl: p.config.publicUrl });
  await registerStatic(app, p, p.options.webDist ?? WEB_DIST);
});

async function registerStatic(app: FastifyInstance, { config, db }: Platform, webDist: string) {
  const mediaDir = path.join(config.dataDir, 'media');
  mkdirSync(mediaDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: '/media/',
    decorateReply: false,
    maxAge: '1h',
  });

  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      index: false,
      wildcard: false,
      // The prerendered pages are answered by sendSpaIndex under their own routes, with their head;
      // the .br/.gz copies (web/scripts/compress.mjs) only in place of their originals.
      globIgnore: ['prerendered/**', '**/*.br', '**/*.gz'],
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/media/');
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      if (!hasWeb) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The web app is not built yet: run `npm run build`, then restart the server.');
      }
      const productId = productIdOfPath(pathname);
      if (productId !== undefined) {
        return sendProductHtml(reply, {
          webDist,
          id: productId,
          publicUrl: config.publicUrl,
          acceptEncoding: request.headers['accept-encoding'],
          findPage: (id) => findProductPage(db, id),
        });
      }
      const showId = showIdOfPath(pathname);
      if (showId !== undefined) {
        return sendShowHtml(reply, {
          webDist,
          id: showId,
          publicUrl: config.publicUrl,
          acceptEncoding: request.headers['accept-encoding'],
          findShow: (id) => findShow(db, id),
        });
      }
      // The SPA renders every non-API route, including its own 'Page Not Found'.
      return sendSpaIndex(reply, {
        webDist,
        pathname,
        publicUrl: config.publicUrl,
        prerender: config.prerender,
        signedIn: request.user !== null,
        acceptEncoding: request.headers['accept-encoding'],
      });
    }
    throw notFound(`No such endpoint: ${request.method} ${pathname}`);
  });
}
