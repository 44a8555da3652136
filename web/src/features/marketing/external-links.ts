/**
 * Addresses outside StreamShop that the marketing pages link to. The spec names them but not
 * where they live, so they sit on the reserved .example domain until the real ones are known.
 */
export const NEWSLETTER_FORM_URL = 'https://newsletter.streamdisc.example/subscribe';

export const PRODUCT_SITES = [
  {
    name: 'Stream Disc',
    href: 'https://streamdisc.example/',
    blurb: 'The tap-to-stream, tap-to-buy collectible for music, film and art.',
  },
  {
    name: 'Drop Mode',
    href: 'https://dropmode.example/',
    blurb: 'The creator tool that packages a release, its extras and its disc run into one drop.',
  },
  {
    name: 'StreamShop Live',
    href: 'https://live.streamshop.example/',
    blurb: 'Go live, sell while you stream and keep every replay on your storefront.',
  },
] as const;

export const BLOG_ARTICLE_SOURCE_URL = 'https://streamdisc.example/press/founders-batch';
