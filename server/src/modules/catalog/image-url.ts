import { IMAGE_URL_PATTERN } from '@streamshop/contract/catalog.ts';
import { badRequest } from '../../platform/errors.ts';

/**
 * The contract already limits site paths to uploaded media; an absolute URL on the site's own
 * origin (http://shop.example/api/logout) is the same request with more letters, so it must name
 * uploaded media too.
 */
export function assertImageUrlOnSite(imageUrl: string | null, publicUrl: string): void {
  if (!imageUrl || imageUrl.startsWith('/')) return;
  let url: URL;
  try {
    url = new URL(imageUrl);
  } catch {
    return; // the contract's pattern decides what an http(s) URL is
  }
  if (url.origin !== new URL(publicUrl).origin) return;
  if (url.search || url.hash || !IMAGE_URL_PATTERN.test(url.pathname)) {
    throw badRequest('Invalid imageUrl: a URL on this site must be an image uploaded here', {
      imageUrl: 'must be an http(s) URL or an image uploaded here',
    });
  }
}
