import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Paths called server-to-server: payment webhooks, and the one-click unsubscribe a mail provider
 * posts (RFC 8058). Each carries its own signature and acts on no session.
 */
const EXEMPT_PREFIXES = ['/api/webhooks/', '/api/notifications/unsubscribe'];

export function sameOrigin(request: FastifyRequest, origin: string, publicOrigin: string): boolean {
  if (origin === publicOrigin) return true;
  // The origin the request was addressed to (dev proxy, tests on a random port).
  const host = request.headers.host;
  return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
}

/**
 * CSRF defence: a state-changing request from a browser must come from our own origin.
 * Browsers always send Origin on cross-origin and on POST/PUT/DELETE fetches; requests without
 * it (curl, server-to-server) carry no ambient browser cookies from another site.
 */
export const originCheckPlugin = fp<{ publicUrl: string }>(
  async (app: FastifyInstance, options) => {
    const publicOrigin = new URL(options.publicUrl).origin;
    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      if (EXEMPT_PREFIXES.some((prefix) => request.url.startsWith(prefix))) return;
      const origin = request.headers.origin;
      if (origin === undefined) {
        if (request.headers['sec-fetch-site'] === 'cross-site') {
          throw new AppError(403, 'CSRF_REJECTED', 'Cross-site request rejected');
        }
        return;
      }
      if (!sameOrigin(request, origin, publicOrigin)) {
        throw new AppError(403, 'CSRF_REJECTED', 'Cross-site request rejected');
      }
    });
  },
  { name: 'origin-check', dependencies: ['errors'] },
);
