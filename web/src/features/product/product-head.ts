import type { ProductPage } from '@streamshop/contract/catalog.ts';
import {
  jsonForScript,
  PRODUCT_NOT_FOUND_TITLE,
  productHeadTags,
  productJsonLd,
} from '@streamshop/contract/product-seo.ts';
import { useEffect } from 'react';
import { resetHead, setHeadTag } from '../../lib/head-tags.ts';

/** The head elements a product page owns (the server writes them too); removed when it goes. */
const PAGE_OWNED =
  'link[rel="canonical"], meta[property^="og:"], meta[property^="product:"], meta[name^="twitter:"], meta[name="robots"], script[data-product-jsonld]';

/**
 * The product's title, description, Open Graph tags and JSON-LD, as the server writes them into
 * the first page (so a page reached by a click says the same), taken away when the page goes.
 * Values go through DOM APIs, never through HTML.
 */
export function useProductHead(page: ProductPage | undefined, notFound: boolean): void {
  useEffect(() => {
    if (notFound) {
      document.title = PRODUCT_NOT_FOUND_TITLE;
      return () => resetHead(PAGE_OWNED);
    }
    if (!page) return;
    for (const tag of productHeadTags(window.location.origin, page)) setHeadTag(tag);
    let script = document.head.querySelector('script[data-product-jsonld]');
    if (!script) {
      script = document.createElement('script');
      script.setAttribute('type', 'application/ld+json');
      script.setAttribute('data-product-jsonld', '');
      document.head.append(script);
    }
    script.textContent = jsonForScript(productJsonLd(window.location.origin, page));
    return () => resetHead(PAGE_OWNED);
  }, [page, notFound]);
}
