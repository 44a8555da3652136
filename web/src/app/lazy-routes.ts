import { matchRoutes, type RouteObject } from 'react-router';

/**
 * Loads the lazy route modules that match `pathname` and writes them into the route objects, as
 * the router itself would on navigation. Hydrating a prerendered page needs this first: with a
 * matched route still lazy the router would start uninitialized and render its HydrateFallback
 * instead of the page the server sent.
 */
export async function resolveLazyRoutes(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      const { lazy } = route;
      if (typeof lazy !== 'function') return;
      const resolved = await lazy();
      Object.assign(route, resolved, { lazy: undefined });
    }),
  );
}
