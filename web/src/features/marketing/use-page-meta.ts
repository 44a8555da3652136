import { DEFAULT_DESCRIPTION, type HeadTag, headTags, type PublicPath } from '@streamshop/contract/seo.ts';
import { useEffect } from 'react';

/** The head elements a route owns; removed again when its page goes, so no other page inherits them. */
const ROUTE_OWNED = 'link[rel="canonical"], meta[property^="og:"], meta[name^="twitter:"]';

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
  for (const element of document.head.querySelectorAll(ROUTE_OWNED)) element.remove();
  document.head.querySelector('meta[name="description"]')?.setAttribute('content', DEFAULT_DESCRIPTION);
}

/**
 * Sets one marketing route's title, description, canonical URL and Open Graph tags (the same ones
 * the server writes into index.html for that route) when the page shows, and takes the
 * route-specific ones away when it goes. Values go through DOM APIs, never through HTML.
 */
export function usePageMeta(path: PublicPath): void {
  useEffect(() => {
    for (const tag of headTags(window.location.origin, path)) setTag(tag);
    return resetHead;
  }, [path]);
}
