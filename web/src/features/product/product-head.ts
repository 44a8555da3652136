import type { ProductPage } from '@streamshop/contract/catalog.ts';
import {
  jsonForScript,
  PRODUCT_NOT_FOUND_TITLE,
  productHeadTags,
  productJsonLd,
} from '@streamshop/contract/product-seo.ts';
import { DEFAULT_DESCRIPTION, type HeadTag } from '@streamshop/contract/seo.ts';
import { useEffect } from 'react';

/** The head elements a product page owns (the server writes them too); removed when it goes. */
const PAGE_OWNED =
  'link[rel="canonical"], meta[property^="og:"], meta[property^="product:"], meta[name^="twitter:"], meta[name="robots"], script[data-product-jsonld]';

function setTag(tag: HeadTag): void {
  if (tag.kind === 'title') {
    document.title = tag.text;
    return;
  }
  const selector = tag.kind === 'meta' ? `meta[${tag.attribute}="${tag.key}"]` : `link[rel="${tag.rel}"]`;
  let element = document.head.querySelector(selector);
  if (!element) {
    element = document.createElement(tag.kind);
    if (tag.kind === 'meta') element.setAttribute(tag.attribute, tag.key);
    else element.setAttribute('rel', tag.rel);
    document.head.append(element);
  }
  if (tag.kind === 'meta') element.setAttribute('content', tag.content);
  else element.setAttribute('href', tag.href);
}

function resetHead(): void {
  for (const element of document.head.querySelectorAll(PAGE_OWNED)) element.remove();
  document.head.querySelector('meta[name="description"]')?.setAttribute('content', DEFAULT_DESCRIPTION);
}

/**
 * The product's title, description, Open Graph tags and JSON-LD, as the server writes them into
 * the first page (so a page reached by a click says the same), taken away when the page goes.
 * Values go through DOM APIs, never through HTML.
 */
export function useProductHead(page: ProductPage | undefined, notFound: boolean): void {
  useEffect(() => {
    if (notFound) {
      document.title = PRODUCT_NOT_FOUND_TITLE;
      return resetHead;
    }
    if (!page) return;
    for (const tag of productHeadTags(window.location.origin, page)) setTag(tag);
    let script = document.head.querySelector('script[data-product-jsonld]');
    if (!script) {
      script = document.createElement('script');
      script.setAttribute('type', 'application/ld+json');
      script.setAttribute('data-product-jsonld', '');
      document.head.append(script);
    }
    script.textContent = jsonForScript(productJsonLd(window.location.origin, page));
    return resetHead;
  }, [page, notFound]);
}
