import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type HeadTag, headTags, type PublicPath, publicPathOf } from '@streamshop/contract/seo.ts';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from './escape.ts';

/** One head element as HTML, every value escaped. */
function renderTag(tag: HeadTag): string {
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
  /[ \t]*<meta\s+(?:property|name)=["'](?:og|twitter):[^"']*["'][^>]*>[ \t]*\r?\n?/gi,
];

/**
 * index.html with the head of one public route: its title, description, canonical URL and Open
 * Graph tags replace the generic ones, where the title was (else at the end of the head).
 */
export function injectHead(html: string, publicUrl: string, route: PublicPath): string {
  const block = headTags(publicUrl, route).map(renderTag).join('\n    ');
  let out = html;
  for (const pattern of REPLACED) out = out.replace(pattern, '');
  if (TITLE.test(out)) return out.replace(TITLE, () => block);
  return out.replace(/<\/head>/i, () => `  ${block}\n  </head>`);
}

/** index.html as last read, re-read when the build replaces it. */
let cached: { file: string; mtimeMs: number; html: string } | undefined;

async function indexHtml(file: string): Promise<string> {
  const { mtimeMs } = await stat(file);
  if (cached?.file !== file || cached.mtimeMs !== mtimeMs) {
    cached = { file, mtimeMs, html: await readFile(file, 'utf8') };
  }
  return cached.html;
}

/**
 * Answers a non-API GET with the SPA's index.html. For the public marketing routes the head
 * already carries that route's metadata, so crawlers and the first paint see it without JS.
 */
export async function sendSpaIndex(
  reply: FastifyReply,
  { webDist, pathname, publicUrl }: { webDist: string; pathname: string; publicUrl: string },
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-cache');
  const route = publicPathOf(pathname);
  if (!route) return reply.sendFile('index.html', webDist);
  const html = await indexHtml(path.join(webDist, 'index.html'));
  return reply.type('text/html; charset=utf-8').send(injectHead(html, publicUrl, route));
}
