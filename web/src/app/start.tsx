import type { QueryClient } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type Root, type RootOptions } from 'react-dom/client';
import { takeEarlyClicks } from '../early-clicks.ts';
import { authUserQueryOptions } from '../lib/api/auth.ts';
import { App, createClientApp } from './app.tsx';
import { ROOM_SHELL_PREVIEW } from './early-room.ts';
import { preloadHomePage } from './home-route.tsx';
import { resolveLazyRoutes } from './lazy-routes.ts';
import { preloadOnLinkIntent } from './link-intent.ts';
import { routes } from './routes.tsx';

/**
 * Starts the SPA in `container` (#root). A marketing route arrives prerendered
 * (web/scripts/prerender.mjs marks the root with data-prerendered): the page's own modules load
 * first, then React hydrates the markup the server sent instead of drawing it again. Every other
 * route starts from the empty shell; a room from the room shell's preview, which it replaces.
 */
export async function startApp(
  container: HTMLElement,
  options: Pick<RootOptions, 'onRecoverableError'> = {},
): Promise<Root> {
  preloadOnLinkIntent(routes);
  if (container.hasAttribute('data-prerendered')) {
    const { pathname } = window.location;
    await Promise.all([
      resolveLazyRoutes(routes, pathname),
      pathname === '/' ? preloadHomePage() : undefined,
    ]);
    const app = createClientApp({ hydrating: true });
    const replayEarlyClicks = takeEarlyClicks();
    // In a transition the hydration is time-sliced: it yields to the browser every few
    // milliseconds instead of holding the main thread for the whole page.
    let root: Root | undefined;
    startTransition(() => {
      root = hydrateRoot(
        container,
        <StrictMode>
          <App {...app} hydrating onFirstCommit={replayEarlyClicks} />
        </StrictMode>,
        options,
      );
    });
    if (!root) throw new Error('hydrateRoot returned nothing');
    return root;
  }
  const root = createRoot(container, options);
  if (container.querySelector(ROOM_SHELL_PREVIEW)) {
    // The room shell: its preview may be playing the live video already (early-room.ts). The room
    // replaces it in one commit, with the route's code and the auth check in, so the room (not the
    // spinner) takes the playing video over; after that commit a player it did not take stops.
    await resolveLazyRoutes(routes, window.location.pathname);
    const app = createClientApp();
    await authChecked(app.queryClient);
    const { dropShellPlayer } = await import('../features/room/shell-player.ts');
    root.render(
      <StrictMode>
        <App {...app} onFirstCommit={dropShellPlayer} />
      </StrictMode>,
    );
    return root;
  }
  root.render(
    <StrictMode>
      <App {...createClientApp()} />
    </StrictMode>,
  );
  return root;
}

/** The room shell waits this long at most for the auth check before the app shows its spinner. */
const ROOM_SHELL_AUTH_WAIT_MS = 3000;

/** Resolves once the first auth check has answered (or failed), or after ROOM_SHELL_AUTH_WAIT_MS. */
function authChecked(queryClient: QueryClient): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ROOM_SHELL_AUTH_WAIT_MS);
    queryClient
      .fetchQuery(authUserQueryOptions)
      .catch(() => {})
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}
