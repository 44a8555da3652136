/**
 * The build-time renderer of the marketing pages (web/scripts/prerender.mjs builds this file for
 * Node with Vite and calls renderPage for each of contract PRERENDERED_PATHS).
 *
 * It renders the same route objects and the same providers as the browser (main.tsx), through
 * react-router's static handler, in the state the browser's first render has when it hydrates:
 * the auth check not answered yet, shown as signed out (AppTree's assumeSignedOut). react-dom's
 * prerender waits for every lazy piece (the '/' landing page) so the HTML is complete.
 */
import { PRERENDER_ORIGIN, type PrerenderedPath, ROOM_SHELL_NAME } from '@streamshop/contract/seo.ts';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppTree } from './app/app.tsx';
import { createQueryClient } from './app/query-client.ts';
import { routes } from './app/routes.tsx';

/** The markup of #root for one marketing route, as the signed-out visitor's first paint. */
export function renderPage(path: PrerenderedPath): Promise<string> {
  return renderRoute(path);
}

/**
 * The room page (/room/{ROOM_SHELL_NAME}) as a signed-out viewer's first render, before its stream
 * has loaded: the room shell's preview, which the app replaces (web/scripts/prerender.mjs).
 */
export function renderRoomShell(): Promise<string> {
  return renderRoute(`/room/${ROOM_SHELL_NAME}`);
}

async function renderRoute(path: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(path, PRERENDER_ORIGIN)));
  if (context instanceof Response) throw new Error(`${path} answered ${context.status} instead of a page`);
  if (context.statusCode !== 200) throw new Error(`${path} rendered with status ${context.statusCode}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  const { prelude } = await prerender(
    <StrictMode>
      <AppTree queryClient={queryClient} assumeSignedOut>
        {/* No hydration script: the CSP allows no inline script, and no route has loader data. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </AppTree>
    </StrictMode>,
    // One document: no boundary is outlined into a later chunk revealed by an inline script.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  queryClient.clear();
  return new Response(prelude).text();
}

export { PRERENDERED_PATHS, prerenderedFile, ROOM_SHELL, ROOM_SHELL_NAME } from '@streamshop/contract/seo.ts';

/**
 * The module each prerendered page's route loads (keys of the client build's manifest), so the
 * page can ask for it, its chunks and its stylesheet up front instead of after main.js runs.
 */
export const PAGE_MODULES: Record<PrerenderedPath, string> = {
  '/': 'src/features/marketing/landing-page.tsx',
  '/stream-disc': 'src/features/marketing/stream-disc-page.tsx',
  '/stream-disc/music': 'src/features/marketing/stream-disc-page.tsx',
  '/stream-disc/film': 'src/features/marketing/stream-disc-page.tsx',
  '/social': 'src/features/marketing/social-page.tsx',
  '/mission': 'src/features/marketing/mission-page.tsx',
  '/social-impact': 'src/features/marketing/social-impact-page.tsx',
  '/about': 'src/features/marketing/about-page.tsx',
  '/team': 'src/features/marketing/team-page.tsx',
  '/blog': 'src/features/marketing/blog-page.tsx',
  '/help': 'src/features/site/site-pages.tsx',
  '/contact': 'src/features/site/contact-page.tsx',
  '/privacy': 'src/features/site/site-pages.tsx',
  '/terms': 'src/features/site/site-pages.tsx',
};
