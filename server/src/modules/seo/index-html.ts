import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { roomNameFromPath } from '@streamshop/contract/room-urls.ts';
import {
  type HeadTag,
  headTags,
  isPrerenderedPath,
  PRERENDER_ORIGIN,
  type PublicPath,
  prerenderedFile,
  publicPathOf,
  ROOM_SHELL,
} from '@streamshop/contract/seo.ts';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from './escape.ts';

/** One head element as HTML, every value escaped. */
export function renderTag(tag: HeadTag): string {
  switch (tag.kind) {
    case 'title':
      return `<title>${escapeHtml(tag.text)}</title>`;
    case 'meta':
      return `<meta ${tag.attribute}="${escapeHtml(tag.key)}" content="${escapeHtml(tag.content)}" />`;
    case 'link':
      return `<link rel="${escapeHtml(tag.rel)}" href="${escapeHtml(tag.href)}" />`;
  }
}

// What index.html may already carry that a route's tags replace.
const TITLE = /<title>[\s\S]*?<\/title>/i;
const REPLACED = [
  /[ \t]*<meta\s+name=["']description["'][^>]*>[ \t]*\r?\n?/gi,
  /[ \t]*<link\s+rel=["']canonical["'][^>]*>[ \t]*\r?\n?/gi,
  /[ \t]*<meta\s+(?:property|name)=["'](?:og|twitter|product):[^"']*["'][^>]*>[ \t]*\r?\n?/gi,
  /[ \t]*<meta\s+name=["']robots["'][^>]*>[ \t]*\r?\n?/gi,
];

/**
 * index.html with a page's own head elements (already HTML): they replace the title, description,
 * canonical URL and Open Graph tags it had, where the title was (else at the end of the head).
 */
export function replaceHead(html: string, block: string): string {
  let out = html;
  for (const pattern of REPLACED) out = out.replace(pattern, '');
  if (TITLE.test(out)) return out.replace(TITLE, () => block);
  return out.replace(/<\/head>/i, () => `  ${block}\n  </head>`);
}

/** index.html with the head of one public route (title, description, canonical URL, Open Graph). */
export function injectHead(html: string, publicUrl: string, route: PublicPath): string {
  return replaceHead(html, headTags(publicUrl, route).map(renderTag).join('\n    '));
}

/**
 * A prerendered page (web/scripts/prerender.mjs) for the public origin: the build wrote
 * PRERENDER_ORIGIN where an absolute URL was needed, which is only ever inside a JSON string in a
 * JSON-LD script (the offer URL). So PUBLIC_URL goes in JSON-escaped, with <, > and & as \u
 * escapes so it can never end the script element.
 */
export function withPublicOrigin(html: string, publicUrl: string): string {
  const safe = JSON.stringify(publicUrl.replace(/\/+$/, ''))
    .slice(1, -1)
    .replace(/[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return html.replaceAll(PRERENDER_ORIGIN, () => safe);
}

/** Files of web/dist as last read, re-read when the build replaces them. */
const cache = new Map<string, { mtimeMs: number; html: string }>();

/** The file's text, or undefined when there is no such file. */
export async function readHtml(file: string): Promise<string | undefined> {
  let mtimeMs: number;
  try {
    ({ mtimeMs } = await stat(file));
  } catch {
    cache.delete(file);
    return undefined;
  }
  const cached = cache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.html;
  const html = await readFile(file, 'utf8');
  cache.set(file, { mtimeMs, html });
  return html;
}

type Encoding = 'br' | 'gzip';
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The encoding to answer in for an Accept-Encoding header: Brotli, else gzip, else none. */
export function pickEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

/**
 * Compressed pages, by encoding and text. There are only as many texts as routes (times the
 * builds a running server has seen), so each is compressed once. Brotli at quality 5: ~3 ms for
 * the landing page's 50 KB (to 8.8 KB); quality 11 would take ~130 ms for 1 KB less.
 */
const compressedPages = new Map<string, Promise<Buffer>>();
const MAX_COMPRESSED = 64;

const compress = (html: string, encoding: Encoding): Promise<Buffer> =>
  encoding === 'br'
    ? brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
    : gz(html, { level: constants.Z_BEST_COMPRESSION });

function compressOnce(html: string, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding}\n${html}`;
  let result = compressedPages.get(key);
  if (!result) {
    result = compress(html, encoding);
    if (compressedPages.size >= MAX_COMPRESSED) {
      const oldest = compressedPages.keys().next().value;
      if (oldest !== undefined) compressedPages.delete(oldest);
    }
    compressedPages.set(key, result);
    result.catch(() => compressedPages.delete(key));
  }
  return result;
}

export interface SpaIndexOptions {
  webDist: string;
  pathname: string;
  publicUrl: string;
  /** Answer the prerendered marketing pages with their build-time HTML (config.prerender). */
  prerender: boolean;
  /** The request carries a live session: '/' is the marketplace for them, not the landing page. */
  signedIn: boolean;
  /** The request's Accept-Encoding: the page goes out Brotli- or gzip-compressed when it allows. */
  acceptEncoding?: string | undefined;
}

/**
 * Answers a non-API GET with the SPA's index.html. A public marketing route gets its own head
 * (title, description, canonical URL, Open Graph), so crawlers and the first paint see it without
 * JS; a prerendered one (contract PRERENDERED_PATHS) gets its build-time HTML, the signed-out view
 * the SPA hydrates. '/' for a signed-in visitor is the marketplace, so it gets the plain shell. A
 * room (/room/{name}) gets the room's shell (contract ROOM_SHELL), which preloads the room page.
 */
export async function sendSpaIndex(
  reply: FastifyReply,
  { webDist, pathname, publicUrl, prerender, signedIn, acceptEncoding }: SpaIndexOptions,
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-cache');
  const route = publicPathOf(pathname);
  if (!route) {
    // A room: the shell that asks for the room page's code with the entry (when the build made it).
    const roomShell = roomNameFromPath(pathname) ? await readHtml(path.join(webDist, ROOM_SHELL)) : undefined;
    if (roomShell !== undefined)
      return sendHtml(reply.header('vary', 'accept-encoding'), roomShell, acceptEncoding);
    // The plain shell, or its .br/.gz copy (web/scripts/compress.mjs).
    return reply.sendFile('index.html', webDist);
  }
  // What '/' answers depends on the session cookie.
  reply.header('vary', route === '/' ? 'accept-encoding, cookie' : 'accept-encoding');
  const usePrerendered = prerender && isPrerenderedPath(route) && !(route === '/' && signedIn);
  const prerendered = usePrerendered ? await readHtml(path.join(webDist, prerenderedFile(route))) : undefined;
  const html = prerendered
    ? withPublicOrigin(prerendered, publicUrl)
    : await readHtml(path.join(webDist, 'index.html'));
  if (html === undefined) return reply.sendFile('index.html', webDist);
  return sendHtml(reply, injectHead(html, publicUrl, route), acceptEncoding);
}

/**
 * Sends a page's HTML, Brotli- or gzip-compressed when Accept-Encoding allows. `remember: false`
 * for pages of which there are too many to keep (a product's): compressed anew each time.
 */
export async function sendHtml(
  reply: FastifyReply,
  page: string,
  acceptEncoding: string | undefined,
  { remember = true }: { remember?: boolean } = {},
): Promise<FastifyReply> {
  reply.type('text/html; charset=utf-8');
  const encoding = pickEncoding(acceptEncoding);
  if (!encoding) return reply.send(page);
  const body = remember ? await compressOnce(page, encoding) : await compress(page, encoding);
  return reply.header('content-encoding', encoding).send(body);
}
