/**
 * The page's entry script. It carries only the stylesheet and this: a prerendered marketing page
 * (web/scripts/prerender.mjs) is already complete in the HTML, so it paints first and the app's
 * code is asked for right after that first paint, together with the page's own route chunks
 * (listed in #root's data-modules); the SPA shell of every other route loads the app at once
 * (its chunks are already preloaded by the shell's <link rel="modulepreload">s). Clicks on the
 * prerendered page's buttons before it is hydrated are replayed after (early-clicks.ts). On a room
 * page it first asks for the room's stream and opens its live video socket (app/early-room.ts);
 * the room shell (a room page as the server sends it) plays the video in its preview first and
 * asks for the app's code (listed in #root's data-modules) once that plays.
 */
import './index.css';
import { startRoomRequests } from './app/early-room.ts';
import { recordEarlyClicks } from './early-clicks.ts';
import { AUTH_USER_URL } from './lib/api/auth-url.ts';
import { startEarlyGet } from './lib/early-requests.ts';

/**
 * Resolves once the browser has shown the page's first content (the paint timing entry, which
 * comes when the frame is on screen), at once in a hidden tab or a browser without paint timing,
 * and after 3 s at the latest.
 */
function afterFirstPaint(): Promise<void> {
  const supported = PerformanceObserver.supportedEntryTypes?.includes('paint') ?? false;
  if (document.visibilityState !== 'visible' || !supported) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    };
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) done();
    });
    const timer = setTimeout(done, 3000);
    observer.observe({ type: 'paint', buffered: true });
  });
}

function preloadModules(hrefs: string[]): void {
  const links = document.createDocumentFragment();
  for (const href of hrefs) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    links.append(link);
  }
  document.head.append(links);
}

async function boot(): Promise<void> {
  // Asked for while the app's code is still loading: the auth check every route waits for, and a
  // room page's stream and live video.
  startEarlyGet(AUTH_USER_URL);
  const roomRequests = startRoomRequests(window.location.pathname, { video: true });
  const root = document.getElementById('root');
  if (root?.hasAttribute('data-prerendered')) {
    recordEarlyClicks(root);
    await afterFirstPaint();
  } else {
    // The room shell: its video first (app/early-room.ts).
    await roomRequests;
  }
  preloadModules((root?.dataset.modules ?? '').split(' ').filter(Boolean));
  await import('./main.tsx');
}

void boot();
