import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot, type Root, type RootOptions } from 'react-dom/client';
import { takeEarlyClicks } from '../early-clicks.ts';
import { App, createClientApp } from './app.tsx';
import { preloadHomePage } from './home-route.tsx';
import { resolveLazyRoutes } from './lazy-routes.ts';
import { preloadOnLinkIntent } from './link-intent.ts';
import { routes } from './routes.tsx';

/**
 * Starts the SPA in `container` (#root). A marketing route arrives prerendered
 * (web/scripts/prerender.mjs marks the root with data-prerendered): the page's own modules load
 * first, then React hydrates the markup the server sent instead of drawing it again. Every other
 * route starts from the empty shell.
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
          <App {...app} hydrating onHydrated={replayEarlyClicks} />
        </StrictMode>,
        options,
      );
    });
    if (!root) throw new Error('hydrateRoot returned nothing');
    return root;
  }
  const root = createRoot(container, options);
  root.render(
    <StrictMode>
      <App {...createClientApp()} />
    </StrictMode>,
  );
  return root;
}
