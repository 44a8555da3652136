import { matchRoutes, type RouteObject } from 'react-router';
import { startRoomRequests } from './early-room.ts';

/**
 * Gets a page ready while the visitor is on the way to it: pointing at or focusing a link loads
 * its route's code (once) and a room's stream; pressing it opens a room's live video socket too,
 * about a hundred milliseconds before the click lands.
 */
export function preloadOnLinkIntent(routes: RouteObject[], target: Document = document): () => void {
  const loaded = new Set<string>();

  const sameOriginPath = (event: Event): string | null => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.target === '_blank') return null;
    const url = new URL(link.href, window.location.href);
    return url.origin === window.location.origin ? url.pathname : null;
  };

  const onIntent = (event: Event) => {
    const pathname = sameOriginPath(event);
    if (pathname === null) return;
    if (!loaded.has(pathname)) {
      loaded.add(pathname);
      for (const { route } of matchRoutes(routes, pathname) ?? []) {
        // The router's own lazy() call later finds the module already loaded.
        if (typeof route.lazy === 'function') void Promise.resolve(route.lazy()).catch(() => {});
      }
    }
    // Already on its way (a pointer moving over the card's parts) is not asked again.
    startRoomRequests(pathname, { video: false });
  };

  const onPress = (event: Event) => {
    const pathname = sameOriginPath(event);
    if (pathname !== null) startRoomRequests(pathname, { video: true });
  };

  target.addEventListener('pointerover', onIntent, { passive: true });
  target.addEventListener('focusin', onIntent, { passive: true });
  target.addEventListener('pointerdown', onPress, { passive: true });
  return () => {
    target.removeEventListener('pointerover', onIntent);
    target.removeEventListener('focusin', onIntent);
    target.removeEventListener('pointerdown', onPress);
  };
}
