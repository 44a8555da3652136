/**
 * Where sign-in sends the user back to: `/signin?next=/checkout/<id>` (a signed-out Buy Now),
 * carried through sign-up and external sign-in. Only a path on this site is ever followed: an
 * open redirect would let a link to this site's sign-in page hand a fresh session to a
 * look-alike site. The browser (sign-in pages) and the server (external sign-in's callback) use
 * this one check.
 */

/** The query parameter that names the destination. */
export const RETURN_PATH_PARAM = 'next';

/** Where a sign-in goes when no (acceptable) destination was given. */
export const DEFAULT_RETURN_PATH = '/dashboard';

/** Longer than any link this site makes; the value also travels in external sign-in's cookie. */
export const RETURN_PATH_MAX_LENGTH = 512;

// C0 controls, DEL and C1 controls: browsers drop tab and line breaks from URLs, so '/\t/evil.com'
// would be read as '//evil.com'.
const CONTROL = /\p{Cc}/u;
const ORIGIN = 'https://return-path.invalid';

/** A path this site serves: one leading '/', no second '/' or any '\' after it, nothing odd. */
function isSameSitePath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false;
  // Browsers read '\' as '/' in a URL's path, so '/\evil.com' is '//evil.com'.
  if (path.includes('\\') || CONTROL.test(path)) return false;
  try {
    // Belt and braces: resolved against this site, it must stay on this site.
    return new URL(path, ORIGIN).origin === ORIGIN;
  } catch {
    return false;
  }
}

/**
 * The value itself when it is a same-site path (starts with a single '/', no scheme, host, '\'
 * or control characters, also once percent-decoded: '/%2F%2Fevil.com' is refused), otherwise
 * undefined: the caller falls back to DEFAULT_RETURN_PATH.
 */
export function safeReturnPath(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > RETURN_PATH_MAX_LENGTH) {
    return undefined;
  }
  if (!isSameSitePath(value)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return undefined;
  }
  return isSameSitePath(decoded) ? value : undefined;
}

/** `/signin` or `/signup` with the destination to return to, when there is an acceptable one. */
export function withReturnPath(page: string, next: string | null | undefined): string {
  const path = safeReturnPath(next);
  return path ? `${page}?${new URLSearchParams({ [RETURN_PATH_PARAM]: path })}` : page;
}
