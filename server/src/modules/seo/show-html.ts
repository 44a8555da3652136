import path from 'node:path';
import { jsonForScript } from '@streamshop/contract/product-seo.ts';
import { showHeadTags, showJsonLd, showNotFoundHeadTags } from '@streamshop/contract/show-seo.ts';
import type { Show } from '@streamshop/contract/shows.ts';
import type { FastifyReply } from 'fastify';
import { readHtml, renderTag, replaceHead, sendHtml } from './index-html.ts';

const SHOW_PATH = /^\/shows\/([^/]+)\/?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id segment of a /shows/:id path (any text: a malformed one is a 404 page), else undefined. */
export function showIdOfPath(pathname: string): string | undefined {
  const segment = SHOW_PATH.exec(pathname)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/**
 * index.html with a show's head: title, description, canonical URL, Open Graph (the cover) and
 * its schema.org Event as JSON-LD; or, for no such show, a 'Show Not Found' title kept out of
 * search results.
 */
export function injectShowHead(html: string, publicUrl: string, show: Show | undefined): string {
  if (!show) return replaceHead(html, showNotFoundHeadTags().map(renderTag).join('\n    '));
  const tags = showHeadTags(publicUrl, show).map(renderTag);
  const jsonLd = `<script type="application/ld+json" data-show-jsonld>${jsonForScript(showJsonLd(publicUrl, show))}</script>`;
  return replaceHead(html, [...tags, jsonLd].join('\n    '));
}

export interface ShowHtmlOptions {
  webDist: string;
  id: string;
  publicUrl: string;
  acceptEncoding?: string | undefined;
  /** The show, undefined when there is no such show. */
  findShow(id: string): Promise<Show | undefined>;
}

/**
 * Answers /shows/:id with the SPA's index.html carrying the show's head, so a shared link
 * previews and a crawler indexes it without running the app; 404 (the app then says so) for an
 * unknown or malformed id. The body is the plain shell: the app renders the page.
 */
export async function sendShowHtml(
  reply: FastifyReply,
  { webDist, id, publicUrl, acceptEncoding, findShow }: ShowHtmlOptions,
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  const show = UUID.test(id) ? await findShow(id) : undefined;
  const html = await readHtml(path.join(webDist, 'index.html'));
  if (html === undefined) return reply.sendFile('index.html', webDist);
  if (!show) reply.status(404);
  // Each show's page differs (and changes with its status): not kept compressed.
  return sendHtml(reply, injectShowHead(html, publicUrl, show), acceptEncoding, { remember: false });
}
