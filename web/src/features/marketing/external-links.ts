import type { SiteLinks } from '@streamshop/contract/site.ts';

/**
 * The landing page's product family. The names and blurbs are ours; where each site lives is the
 * operator's setting (GET /api/site/links): a card without an address is shown without a link.
 */
export function productSites(links: SiteLinks) {
  return [
    {
      name: 'Stream Disc',
      href: links.streamDisc,
      blurb: 'The tap-to-stream, tap-to-buy collectible for music, film and art.',
    },
    {
      name: 'Drop Mode',
      href: links.dropMode,
      blurb: 'The creator tool that packages a release, its extras and its disc run into one drop.',
    },
    {
      name: 'StreamShop Live',
      href: links.streamshopLive,
      blurb: 'Go live, sell while you stream and keep every replay on your storefront.',
    },
  ];
}
