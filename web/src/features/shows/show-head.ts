import { jsonForScript } from '@streamshop/contract/product-seo.ts';
import { showHeadTags, showJsonLd } from '@streamshop/contract/show-seo.ts';
import type { Show } from '@streamshop/contract/shows.ts';
import { useEffect } from 'react';
import { resetHead, setHeadTag } from '../../lib/head-tags.ts';

/** The head elements a show's page owns (the server writes them too); removed when it goes. */
const PAGE_OWNED =
  'link[rel="canonical"], meta[property^="og:"], meta[name^="twitter:"], meta[name="robots"], script[data-show-jsonld]';

/**
 * The show's description, Open Graph tags and schema.org Event, as the server writes them into
 * the first page (so a page reached by a click says the same), taken away when the page goes.
 * The title is the page's (usePageTitle). Values go through DOM APIs, never through HTML.
 */
export function useShowHead(show: Show | undefined, notFound: boolean): void {
  useEffect(() => {
    if (notFound) return () => resetHead(PAGE_OWNED);
    if (!show) return;
    for (const tag of showHeadTags(window.location.origin, show)) {
      if (tag.kind !== 'title') setHeadTag(tag);
    }
    let script = document.head.querySelector('script[data-show-jsonld]');
    if (!script) {
      script = document.createElement('script');
      script.setAttribute('type', 'application/ld+json');
      script.setAttribute('data-show-jsonld', '');
      document.head.append(script);
    }
    script.textContent = jsonForScript(showJsonLd(window.location.origin, show));
    return () => resetHead(PAGE_OWNED);
  }, [show, notFound]);
}
