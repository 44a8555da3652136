import type { QueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { authUserQueryKey } from '../lib/api/auth.ts';
import { AssumeSignedOutProvider } from './assume-signed-out.tsx';
import { AppProviders } from './providers.tsx';
import { createQueryClient } from './query-client.ts';
import { routes } from './routes.tsx';

type BrowserRouter = ReturnType<typeof createBrowserRouter>;

export interface ClientApp {
  router: BrowserRouter;
  queryClient: QueryClient;
}

/**
 * The browser router and the query cache. Made once, after any lazy routes of the first page are
 * resolved when that page was prerendered (start.tsx). `hydrating`: the page was rendered on the
 * server (no route has loader data), so the router keeps the scroll position a visitor may have
 * reached before hydration instead of resetting it to the top.
 */
export function createClientApp({ hydrating = false }: { hydrating?: boolean } = {}): ClientApp {
  const router = createBrowserRouter(
    routes,
    hydrating ? { hydrationData: { loaderData: {}, actionData: null, errors: null } } : undefined,
  );
  // Spec section 6: a 401 'Unauthorized' from any query means the session is gone: re-check the
  // auth state (now signed out) and go home.
  const queryClient = createQueryClient({
    onUnauthorized: () => {
      void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
      void router.navigate('/');
    },
  });
  return { router, queryClient };
}

/**
 * Calls `onFirstCommit` once the first commit is done (and its effects), from a task of its own: a Suspense boundary
 * (the landing page of '/') may still be dehydrated then, and an event dispatched outside React's
 * own work lets React hydrate it on the spot before handling it.
 */
function AfterFirstCommit({ onFirstCommit }: { onFirstCommit: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onFirstCommit, 0);
    return () => clearTimeout(timer);
  }, [onFirstCommit]);
  return null;
}

/**
 * The whole app around a router: the browser's (App) or, at build time, the static one
 * (src/prerender.tsx), so both render the same tree and the prerendered HTML hydrates.
 * `assumeSignedOut`: the page is (being) prerendered, the signed-out view: while the auth check
 * runs the marketing routes render as signed out instead of the spinner. `onFirstCommit` runs once
 * the first commit is done (for a hydrated page: clicks made before are replayed, early-clicks.ts;
 * for a room shell: a preview player the room did not take is stopped).
 */
export function AppTree({
  queryClient,
  assumeSignedOut,
  onFirstCommit,
  children,
}: {
  queryClient: QueryClient;
  assumeSignedOut: boolean;
  onFirstCommit?: (() => void) | undefined;
  children: ReactNode;
}) {
  return (
    <AssumeSignedOutProvider value={assumeSignedOut}>
      <AppProviders queryClient={queryClient}>{children}</AppProviders>
      {/* Always two children here, with or without it: the same tree on the server. */}
      {onFirstCommit ? <AfterFirstCommit onFirstCommit={onFirstCommit} /> : null}
    </AssumeSignedOutProvider>
  );
}

/** The SPA. `hydrating`: started on a prerendered page (see AppTree); `onFirstCommit`: see AppTree. */
export function App({
  router,
  queryClient,
  hydrating = false,
  onFirstCommit,
}: ClientApp & { hydrating?: boolean; onFirstCommit?: () => void }) {
  return (
    <AppTree queryClient={queryClient} assumeSignedOut={hydrating} onFirstCommit={onFirstCommit}>
      <RouterProvider router={router} />
    </AppTree>
  );
}
