import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values may appear in the request log: search and paging, HLS's
 * blocking-reload counters, the reason a page was opened with. Every other value is written as
 * `[redacted]`: mailed links carry their tokens in the query (`/reset-password?token=…`,
 * `/verify-email`, `/confirm-email`), as does the OpenID Connect callback (`code`, `state`), and
 * whoever reads the logs must not be able to open an account with them. An allow-list, so that a
 * parameter added later is kept out until someone decides it is harmless.
 */
const SHOWN_PARAMETERS = new Set([
  'search',
  'category',
  'condition',
  'sort',
  'page',
  'cursor',
  'limit',
  'minPrice',
  'maxPrice',
  'room',
  'error',
  '_HLS_msn',
  '_HLS_part',
  '_HLS_skip',
]);

/** The URL as the log may show it: the path, and the query with secret values redacted. */
export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const query = [...new URLSearchParams(url.slice(at + 1))]
    .map(([name, value]) =>
      SHOWN_PARAMETERS.has(name)
        ? `${encodeURIComponent(name)}=${encodeURIComponent(value)}`
        : `${encodeURIComponent(name)}=[redacted]`,
    )
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** What the logger writes under `req` ("incoming request"), Fastify's fields with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
