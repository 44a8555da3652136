/**
 * Search and link-preview metadata of the public marketing routes, shared by the server (which
 * writes it into index.html for crawlers and the first paint, and lists the routes in
 * sitemap.xml) and the web app (which sets it again on client-side navigation).
 */

export const SITE_NAME = 'StreamShop';

/** What index.html says when no route-specific description applies. */
export const DEFAULT_DESCRIPTION =
  'StreamShop: shop live streams from independent artists, labels, creators and businesses.';

/** The 1200x630 link-preview picture, built from our own SVG (web/scripts/make-og-image.mjs). */
export const OG_IMAGE = {
  path: '/og-image.png',
  width: 1200,
  height: 630,
  type: 'image/png',
  alt: 'StreamShop: live-stream shopping and the Stream Disc, a collectible you tap to stream.',
} as const;

/** The public routes crawlers should find, in sitemap order. */
export const PUBLIC_PATHS = [
  '/',
  '/stream-disc',
  '/stream-disc/music',
  '/stream-disc/film',
  '/social',
  '/mission',
  '/social-impact',
  '/about',
  '/team',
  '/blog',
  '/explore',
  '/help',
  '/contact',
  '/privacy',
  '/terms',
] as const;
export type PublicPath = (typeof PUBLIC_PATHS)[number];

export interface PageMeta {
  /** The whole document title, also used as og:title. */
  title: string;
  /** 50-160 characters: what a search result shows under the title. */
  description: string;
  ogType: 'website' | 'article';
}

const titled = (name: string) => `${name} · ${SITE_NAME}`;

export const PAGE_META: Record<PublicPath, PageMeta> = {
  '/': {
    title: `${SITE_NAME}: Shop live. Sell live.`,
    description:
      'Live-stream shopping for independent artists, labels and creators: go live, sell in the stream, and press Stream Discs fans tap to play.',
    ogType: 'website',
  },
  '/stream-disc': {
    title: titled('Stream Disc: The Future Is Here'),
    description:
      'Stream Disc is a collectible you can hold and a link you can tap: one touch of a phone streams the album, film or artwork and opens the shop.',
    ogType: 'website',
  },
  '/stream-disc/music': {
    title: titled('Stream Disc Music Edition: A Modern Alternative to CDs & Vinyl'),
    description:
      'A numbered disc for albums that plays on any phone with a tap: hi-fi streaming, lyrics and liner notes, and merch from the artist, no player needed.',
    ogType: 'website',
  },
  '/stream-disc/film': {
    title: titled('Stream Disc Film Edition: A Modern Alternative to DVDs & Blu-ray'),
    description:
      'A collectible edition for films that lives on the shelf and streams on any screen: tap to watch in HD with the commentary and extras included.',
    ogType: 'website',
  },
  '/social': {
    title: titled('Social Commerce'),
    description:
      'A StreamShop room is a store, a stage and a group chat at once: viewers ask, react and buy while the seller shows the product live.',
    ogType: 'website',
  },
  '/mission': {
    title: titled('Our Mission'),
    description:
      'We help independent creators earn a living from the people who love their work, by putting the shop inside the show.',
    ogType: 'website',
  },
  '/social-impact': {
    title: titled('Social Impact'),
    description:
      'How StreamShop and the Stream Disc keep more of every sale with creators, cut waste from physical media and support local scenes.',
    ogType: 'website',
  },
  '/about': {
    title: titled('About StreamShop'),
    description:
      'StreamShop builds live rooms, storefronts and the Stream Disc for independent creators: our pillars, infrastructure, traction and partners.',
    ogType: 'website',
  },
  '/team': {
    title: titled('Our Team'),
    description:
      'Meet the people building StreamShop: a founder from independent music retail and a CTO from streaming and payments systems.',
    ogType: 'website',
  },
  '/blog': {
    title: titled('Blog'),
    description:
      'News and stories from StreamShop: live-stream selling, the Stream Disc and the independent creators who use them.',
    ogType: 'website',
  },
  '/explore': {
    title: titled('Marketplace'),
    description:
      'Browse products from independent sellers on StreamShop: music, film, art and merch, with live streams where you can ask and buy.',
    ogType: 'website',
  },
  '/help': {
    title: titled('Help Center'),
    description:
      'Answers about buying, watching live rooms, selling and your account on StreamShop, and how to reach us when you need more help.',
    ogType: 'website',
  },
  '/contact': {
    title: titled('Contact Us'),
    description:
      'Questions about an order, selling or your account? Send the StreamShop team a message and we will reply by email.',
    ogType: 'website',
  },
  '/privacy': {
    title: titled('Privacy Policy'),
    description:
      'What personal information StreamShop collects, why, who it is shared with, how long it is kept and the choices you have.',
    ogType: 'website',
  },
  '/terms': {
    title: titled('Terms of Service'),
    description:
      'The terms for using StreamShop: accounts, buying and selling, live streams and content, plans and payment, and liability.',
    ogType: 'website',
  },
};

/**
 * The marketing routes rendered to static HTML at build time (web/scripts/prerender.mjs): every
 * public route but the marketplace, whose content comes from the database. The server answers
 * them with that HTML (the signed-out view), which the SPA then hydrates.
 */
export const PRERENDERED_PATHS = [
  '/',
  '/stream-disc',
  '/stream-disc/music',
  '/stream-disc/film',
  '/social',
  '/mission',
  '/social-impact',
  '/about',
  '/team',
  '/blog',
  '/help',
  '/contact',
  '/privacy',
  '/terms',
] as const satisfies readonly PublicPath[];
export type PrerenderedPath = (typeof PRERENDERED_PATHS)[number];

export function isPrerenderedPath(path: string): path is PrerenderedPath {
  return (PRERENDERED_PATHS as readonly string[]).includes(path);
}

/** Where a prerendered page lives inside web/dist: '/' -> prerendered/index.html, '/a/b' -> prerendered/a/b.html. */
export function prerenderedFile(path: PrerenderedPath): string {
  return `prerendered${path === '/' ? '/index' : path}.html`;
}

/**
 * The page shell for a room (/room/{name}) inside web/dist: the SPA's shell, plus preload links for
 * the room page's chunks and stylesheet, so they load beside the entry instead of after it.
 */
export const ROOM_SHELL = 'prerendered/room-shell.html';

/**
 * The room the room shell's preview is rendered for at build time (a signed-out viewer's room
 * before its stream has loaded). The preview is inert and replaced by the app, so the name is
 * never shown or followed.
 */
export const ROOM_SHELL_NAME = 'room-shell';

/**
 * Stands for the public origin in prerendered HTML (the build does not know PUBLIC_URL); the
 * server replaces it with PUBLIC_URL when it serves the page. Only characters that need no
 * escaping in HTML, attributes or JSON.
 */
export const PRERENDER_ORIGIN = 'https://public-origin.streamshop.invalid';

/** The route whose metadata applies to a URL path ('/about/' counts as '/about'), if any. */
export function publicPathOf(pathname: string): PublicPath | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
  return Object.hasOwn(PAGE_META, trimmed) ? (trimmed as PublicPath) : undefined;
}

/** An absolute URL on the public origin: absoluteUrl('https://x.test/', '/about') -> https://x.test/about. */
export function absoluteUrl(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${path}`;
}

export type HeadTag =
  | { kind: 'title'; text: string }
  | { kind: 'meta'; attribute: 'name' | 'property'; key: string; content: string }
  | { kind: 'link'; rel: 'canonical'; href: string };

/** Every head element one route owns, in document order. `origin` is the public URL. */
export function headTags(origin: string, path: PublicPath): HeadTag[] {
  const meta = PAGE_META[path];
  const url = absoluteUrl(origin, path);
  const image = absoluteUrl(origin, OG_IMAGE.path);
  const name = (key: string, content: string): HeadTag => ({ kind: 'meta', attribute: 'name', key, content });
  const property = (key: string, content: string): HeadTag => ({
    kind: 'meta',
    attribute: 'property',
    key,
    content,
  });
  return [
    { kind: 'title', text: meta.title },
    name('description', meta.description),
    { kind: 'link', rel: 'canonical', href: url },
    property('og:site_name', SITE_NAME),
    property('og:type', meta.ogType),
    property('og:title', meta.title),
    property('og:description', meta.description),
    property('og:url', url),
    property('og:image', image),
    property('og:image:type', OG_IMAGE.type),
    property('og:image:width', String(OG_IMAGE.width)),
    property('og:image:height', String(OG_IMAGE.height)),
    property('og:image:alt', OG_IMAGE.alt),
    name('twitter:card', 'summary_large_image'),
  ];
}
