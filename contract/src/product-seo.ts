import type { ProductPage } from './catalog.ts';
import { formatCents } from './money.ts';
import { absoluteUrl, DEFAULT_DESCRIPTION, type HeadTag, OG_IMAGE, SITE_NAME } from './seo.ts';

/**
 * Search and link-preview metadata of a product page (/products/:id): the server writes it into
 * index.html for crawlers and shared links, the web app sets the same tags on client-side
 * navigation.
 */

export const productPath = (id: string) => `/products/${id}`;

/** The document title of a product page. */
export const productTitle = (title: string) => `${title} · ${SITE_NAME}`;

/** The title of the page for an unknown product id (answered 404). */
export const PRODUCT_NOT_FOUND_TITLE = productTitle('Product Not Found');

/** What a search result shows under the title: at most this many characters. */
export const PRODUCT_DESCRIPTION_MAX = 160;

const CONDITION_NAMES = { new: 'New', used: 'Used', refurbished: 'Refurbished' } as const;

/** Cents as the decimal string schema.org and Open Graph want: 2500 -> "25.00". */
export function decimalPrice(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** At most `max` characters, cut at a word with an ellipsis when it had to be cut. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:-]+$/, '')}…`;
}

/** "$25.00 · Used · from @groovevault on StreamShop. Original 1963 pressing…" */
export function productDescription({ product }: Pick<ProductPage, 'product'>): string {
  const lead = `${formatCents(product.priceCents)} · ${CONDITION_NAMES[product.condition]} · from @${product.seller.handle} on ${SITE_NAME}.`;
  const about = product.description?.replace(/\s+/g, ' ').trim();
  return clip(about ? `${lead} ${about}` : lead, PRODUCT_DESCRIPTION_MAX);
}

/** The product's picture as an absolute URL (the site's own picture when it has none). */
export function productImageUrl(origin: string, imageUrl: string | null): string {
  if (!imageUrl) return absoluteUrl(origin, OG_IMAGE.path);
  return imageUrl.startsWith('/') ? absoluteUrl(origin, imageUrl) : imageUrl;
}

/** Every head element a product page owns, in document order. `origin` is the public URL. */
export function productHeadTags(origin: string, page: ProductPage): HeadTag[] {
  const { product } = page;
  const url = absoluteUrl(origin, productPath(product.id));
  const description = productDescription(page);
  const name = (key: string, content: string): HeadTag => ({ kind: 'meta', attribute: 'name', key, content });
  const property = (key: string, content: string): HeadTag => ({
    kind: 'meta',
    attribute: 'property',
    key,
    content,
  });
  return [
    { kind: 'title', text: productTitle(product.title) },
    name('description', description),
    { kind: 'link', rel: 'canonical', href: url },
    property('og:site_name', SITE_NAME),
    property('og:type', 'product'),
    property('og:title', product.title),
    property('og:description', description),
    property('og:url', url),
    property('og:image', productImageUrl(origin, product.imageUrl)),
    property('og:image:alt', product.imageUrl ? product.title : OG_IMAGE.alt),
    property('product:price:amount', decimalPrice(product.priceCents)),
    property('product:price:currency', 'USD'),
    name('twitter:card', 'summary_large_image'),
  ];
}

/** The head of the page for an unknown product: its own title, kept out of search results. */
export function productNotFoundHeadTags(): HeadTag[] {
  return [
    { kind: 'title', text: PRODUCT_NOT_FOUND_TITLE },
    { kind: 'meta', attribute: 'name', key: 'description', content: DEFAULT_DESCRIPTION },
    { kind: 'meta', attribute: 'name', key: 'robots', content: 'noindex' },
  ];
}

const ITEM_CONDITION = {
  new: 'https://schema.org/NewCondition',
  used: 'https://schema.org/UsedCondition',
  refurbished: 'https://schema.org/RefurbishedCondition',
} as const;

/** The schema.org Product of the page, with its one offer (price, currency, availability). */
export function productJsonLd(origin: string, page: ProductPage): Record<string, unknown> {
  const { product, seller } = page;
  const url = absoluteUrl(origin, productPath(product.id));
  const shipping =
    product.fulfillment === 'ship'
      ? {
          shippingDetails: {
            '@type': 'OfferShippingDetails',
            shippingRate: {
              '@type': 'MonetaryAmount',
              value: decimalPrice(product.shippingCents),
              currency: 'USD',
            },
          },
        }
      : {};
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.title,
    description: product.description ?? productDescription(page),
    image: [productImageUrl(origin, product.imageUrl)],
    sku: product.id,
    productID: product.id,
    url,
    itemCondition: ITEM_CONDITION[product.condition],
    offers: {
      '@type': 'Offer',
      price: decimalPrice(product.priceCents),
      priceCurrency: 'USD',
      availability: product.stock > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: ITEM_CONDITION[product.condition],
      url,
      seller: {
        '@type': 'Organization',
        name: seller.businessName ?? `@${seller.handle}`,
        url: absoluteUrl(origin, `/s/${encodeURIComponent(seller.handle)}`),
      },
      ...shipping,
    },
  };
}

/**
 * JSON for the inside of a <script> element: '<', '>' and '&' (and the two line separators) as
 * \u escapes, so no text in it (a title with '</script>') can end the element or open a comment.
 * Still JSON: JSON.parse reads back the same value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
