import { headTags, type PublicPath } from '@streamshop/contract/seo.ts';
import { useEffect } from 'react';
import { resetHead, setHeadTag } from '../../lib/head-tags.ts';

/** The head elements a route owns; removed again when its page goes, so no other page inherits them. */
const ROUTE_OWNED = 'link[rel="canonical"], meta[property^="og:"], meta[name^="twitter:"]';

/**
 * Sets one marketing route's title, description, canonical URL and Open Graph tags (the same ones
 * the server writes into index.html for that route) when the page shows, and takes the
 * route-specific ones away when it goes. Values go through DOM APIs, never through HTML.
 */
export function usePageMeta(path: PublicPath): void {
  useEffect(() => {
    for (const tag of headTags(window.location.origin, path)) setHeadTag(tag);
    return () => resetHead(ROUTE_OWNED);
  }, [path]);
}
