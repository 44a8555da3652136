import path from 'node:path';
import type { ProductPage } from '@streamshop/contract/catalog.ts';
import {
  jsonForScript,
  productHeadTags,
  productJsonLd,
  productNotFoundHeadTags,
} from '@streamshop/contract/product-seo.ts';
import type { FastifyReply } from 'fastify';
import { readHtml, renderTag, replaceHead, sendHtml } from './index-html.ts';

const PRODUCT_PATH = /^\/products\/([^/]+)\/?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id segment of a /products/:id path (any text: a malformed one is a 404 page), else undefined. */
export function productIdOfPath(pathname: string): string | undefined {
  const segment = PRODUCT_PATH.exec(pathname)?.[1];
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

/**
 * index.html with a product's head: title, description, canonical URL, Open Graph (og:type
 * product, the product's picture) and its schema.org Product as JSON-LD; or, for no such product,
 * a 'Product Not Found' title kept out of search results.
 */
export function injectProductHead(html: string, publicUrl: string, page: ProductPage | undefined): string {
  if (!page) return replaceHead(html, productNotFoundHeadTags().map(renderTag).join('\n    '));
  const tags = productHeadTags(publicUrl, page).map(renderTag);
  const jsonLd = `<script type="application/ld+json" data-product-jsonld>${jsonForScript(productJsonLd(publicUrl, page))}</script>`;
  return replaceHead(html, [...tags, jsonLd].join('\n    '));
}

export interface ProductHtmlOptions {
  webDist: string;
  id: string;
  publicUrl: string;
  acceptEncoding?: string | undefined;
  /** The page's data, undefined when there is no such listed product. */
  findPage(id: string): Promise<ProductPage | undefined>;
}

/**
 * Answers /products/:id with the SPA's index.html carrying the product's head, so a shared link
 * previews and a crawler indexes it without running the app; 404 (the app then says so) for an
 * unknown or malformed id. The body is the plain shell: the app renders the page.
 */
export async function sendProductHtml(
  reply: FastifyReply,
  { webDist, id, publicUrl, acceptEncoding, findPage }: ProductHtmlOptions,
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  const page = UUID.test(id) ? await findPage(id) : undefined;
  const html = await readHtml(path.join(webDist, 'index.html'));
  if (html === undefined) return reply.sendFile('index.html', webDist);
  if (!page) reply.status(404);
  // Each product's page differs (and changes with its stock): not kept compressed.
  return sendHtml(reply, injectProductHead(html, publicUrl, page), acceptEncoding, { remember: false });
}
