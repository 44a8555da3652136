import { useEffect } from 'react';

const PRODUCT_NAME = 'StreamShop';

/** Sets the document title to "{title} · StreamShop" (or just the product name). */
export function usePageTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
