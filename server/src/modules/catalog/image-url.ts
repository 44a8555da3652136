import { IMAGE_URL_PATTERN } from '@streamshop/contract/catalog.ts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../platform/errors.ts';
import { uploadKeyOf } from './image-upload.ts';
import { isUploadOf } from './uploads-repo.ts';

/** The answer, on the field, when an image uploaded by another account is named. */
export const NOT_YOUR_UPLOAD = 'is not an image you uploaded';

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

/**
 * An uploaded image (`/media/uploads/…`, relative or on the site's origin) may be a product's
 * image or a profile picture only of the account that uploaded it: 400 on `field` otherwise, so
 * nobody can tie another account's file to their own. Other URLs are not uploads and pass. The
 * value already saved (`current`) passes unchanged, so an edit never trips over an image set
 * before uploads had owners; deleting an account removes only what it owns either way.
 */
export async function assertOwnUpload(
  db: Db,
  userId: string,
  imageUrl: string | null | undefined,
  options: { publicUrl: string; field: string; current?: string | null },
): Promise<void> {
  const key = uploadKeyOf(imageUrl, options.publicUrl);
  if (!key || imageUrl === options.current) return;
  if (await isUploadOf(db, key, userId)) return;
  throw badRequest(`Invalid ${options.field}: it ${NOT_YOUR_UPLOAD}`, { [options.field]: NOT_YOUR_UPLOAD });
}
