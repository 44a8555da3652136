import type { PrerenderedPath } from '@streamshop/contract/seo.ts';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preloadHomePage } from '../../app/home-route.tsx';
import { resolveLazyRoutes } from '../../app/lazy-routes.ts';
import { AppProviders } from '../../app/providers.tsx';
import { createQueryClient } from '../../app/query-client.ts';
import { routes } from '../../app/routes.tsx';
import { resetToasts } from '../../components/ui/use-toast.ts';
import { AboutPage } from './about-page.tsx';
import { BlogPage } from './blog-page.tsx';
import { LandingPage } from './landing-page.tsx';
import { MissionPage } from './mission-page.tsx';
import { SocialImpactPage } from './social-impact-page.tsx';
import { SocialPage } from './social-page.tsx';
import { StreamDiscFilmPage, StreamDiscLandingPage, StreamDiscMusicPage } from './stream-disc-page.tsx';
import { TeamPage } from './team-page.tsx';

/**
 * Every timer a marketing page starts (the explainer's steps, reaction bursts and each floating
 * reaction, the /social demo chat, the blog logo, dialogs' success views, toasts) must be gone once
 * the page is: navigating back and forth must not pile them up. Fake timers count them.
 */

const PAGES: [string, ComponentType, string][] = [
  ['/', LandingPage, '/'],
  ['/social', SocialPage, '/social'],
  ['/blog', BlogPage, '/blog'],
  ['/stream-disc', StreamDiscLandingPage, '/stream-disc'],
  ['/stream-disc/music', StreamDiscMusicPage, '/stream-disc/music'],
  ['/stream-disc/film', StreamDiscFilmPage, '/stream-disc/film'],
  ['/mission', MissionPage, '/mission'],
  ['/social-impact', SocialImpactPage, '/social-impact'],
  ['/about', AboutPage, '/about'],
  ['/team', TeamPage, '/team'],
];

/** Lets `ms` of fake time pass, with React's updates (and promises) flushed along the way. */
const pass = (ms: number) => act(async () => void (await vi.advanceTimersByTimeAsync(ms)));

/**
 * How long `eventually` waits, in real time, for what only real time brings (a module, a
 * response); under the test's own 5 s limit, so a miss says what was missing.
 */
const REAL_WAIT_MS = 4000;

/**
 * find* of Testing Library polls with timers, which are fake here: poll by hand instead. Between
 * tries the real event loop turns (a dynamic import or a response arrives) and what is due now on
 * the fake clock runs (TanStack Query notifies through setTimeout(0)); no fake time passes. The
 * limit is real time, not a number of tries: how many turns a module takes to load depends on how
 * busy the machine is (a fixed 100 tries, about half a second, failed on a busy 2-core machine).
 */
async function eventually<T>(get: () => T): Promise<T> {
  const giveUpAt = performance.now() + REAL_WAIT_MS;
  for (;;) {
    try {
      return get();
    } catch (error) {
      if (performance.now() > giveUpAt) throw error;
      await act(async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        await vi.advanceTimersByTimeAsync(0);
      });
    }
  }
}

function stubNetwork() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/auth/user') return new Response('{"message":"Unauthorized"}', { status: 401 });
      if (url === '/api/beta-signup') return new Response('{"ok":true}', { status: 201 });
      return new Response('', { status: 404 });
    }),
  );
  // jsdom has no scrolling; the router's ScrollRestoration calls it.
  vi.stubGlobal('scrollTo', () => {});
}

beforeEach(() => {
  // Only timers: promises, React's scheduler (setImmediate) and dynamic imports run for real.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  stubNetwork();
});

afterEach(() => {
  cleanup();
  resetToasts();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('marketing page timers', () => {
  it.each(PAGES)(
    '%s clears every timer it started when it unmounts, every time',
    async (_name, Page, path) => {
      const baseline = vi.getTimerCount();
      for (let round = 0; round < 3; round += 1) {
        const queryClient = createQueryClient({ onUnauthorized: () => {} });
        const view = render(
          <AppProviders queryClient={queryClient}>
            <MemoryRouter initialEntries={[path]}>
              <Page />
            </MemoryRouter>
          </AppProviders>,
        );
        await pass(0);
        // A reaction of the visitor's own (a timer until it has floated away), where the page has them.
        const heart = screen.queryAllByRole('button', { name: 'Send a heart' })[0];
        if (heart) fireEvent.click(heart);
        // Bursts, the chat, the explainer and the logo run a few rounds.
        await pass(7_000);
        if (heart) fireEvent.click(heart);
        view.unmount();
        // The query cache's own timers (garbage collection of the live rooms' and links' queries)
        // belong to the app's client, which outlives a page: cleared with it, as the app does.
        queryClient.clear();
        expect(vi.getTimerCount()).toBe(baseline);
      }
    },
  );

  it("a dialog's success view and its toast leave no timer behind when the page goes", async () => {
    const baseline = vi.getTimerCount();
    const queryClient = createQueryClient({ onUnauthorized: () => {} });
    // The finished sign-up stays in the query client's cache for 5 minutes (an app-wide clean-up
    // timer, not the page's): here it goes at once, so what is left would be the page's.
    queryClient.setDefaultOptions({
      ...queryClient.getDefaultOptions(),
      mutations: { retry: false, gcTime: 0 },
    });
    const view = render(
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={['/stream-disc']}>
          <StreamDiscLandingPage />
        </MemoryRouter>
      </AppProviders>,
    );
    fireEvent.click(screen.getByTestId('join-beta-button'));
    // The dialog is a chunk of its own (lazy-dialogs.tsx): wait for that module, as the page does.
    await act(() => import('./components/beta-signup-dialog.tsx'));
    const email = await eventually(() => screen.getByTestId('beta-email'));
    fireEvent.change(email, { target: { value: 'fan@example.com' } });
    fireEvent.click(screen.getByTestId('beta-submit'));
    expect(await eventually(() => screen.getByTestId('beta-success'))).toBeTruthy();
    // The success view closes itself after 3 s: leave before it does.
    view.unmount();
    // The dialog's focus handling hands focus back in a 0 ms timeout, the cache entry goes: run them.
    await pass(0);
    expect(vi.getTimerCount()).toBe(baseline);
  });

  it('toasts are gone, timers and all, once they have closed', async () => {
    const baseline = vi.getTimerCount();
    const queryClient = createQueryClient({ onUnauthorized: () => {} });
    render(
      <AppProviders queryClient={queryClient}>
        <MemoryRouter initialEntries={['/stream-disc/music?preorder=success']}>
          <StreamDiscMusicPage />
        </MemoryRouter>
      </AppProviders>,
    );
    await pass(0);
    expect(screen.getByText('Pre-Order Successful!')).toBeTruthy();
    cleanup();
    // The toast lives in the app-wide store, not in the page: it closes after its 8 s.
    await pass(20_000);
    expect(vi.getTimerCount()).toBe(baseline);
  });

  it('navigating back and forth between the pages in the app does not pile timers up', async () => {
    const paths: PrerenderedPath[] = ['/team', '/', '/social', '/blog', '/stream-disc', '/stream-disc/music'];
    for (const path of paths) await resolveLazyRoutes(routes, path);
    await preloadHomePage();
    const router = createMemoryRouter(routes, { initialEntries: ['/team'] });
    const queryClient = createQueryClient({ onUnauthorized: () => {} });
    render(
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    expect(await eventually(() => screen.getByRole('heading', { level: 1, name: 'Our Team' }))).toBeTruthy();
    // One round first: the query cache then holds a garbage-collection timer for each page's
    // queries it keeps (the app's, not a page's); from there on the count must stay put.
    for (const path of paths.slice(1)) {
      await act(() => router.navigate(path));
      await pass(4_000);
    }
    await act(() => router.navigate('/team'));
    await pass(0);
    // /team runs no timer of its own: what runs there is the app's.
    const atTeam = vi.getTimerCount();
    for (let round = 0; round < 3; round += 1) {
      for (const path of paths.slice(1)) {
        await act(() => router.navigate(path));
        await pass(4_000);
        await act(() => router.navigate('/team'));
        await pass(0);
        expect(vi.getTimerCount()).toBe(atTeam);
      }
    }
    await act(() => router.navigate(-1));
    await pass(4_000);
    await act(() => router.navigate(1));
    expect(vi.getTimerCount()).toBe(atTeam);
  });
});
