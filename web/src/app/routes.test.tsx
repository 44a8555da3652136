import type { User } from '@streamshop/contract/auth.ts';
import { cleanup, configure, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToasts, resetToasts } from '../components/ui/use-toast.ts';
import { AppProviders } from './providers.tsx';
import { createQueryClient } from './query-client.ts';
import { routes } from './routes.tsx';

// Routes are lazy chunks; on a busy machine the first render of one can take over a second.
configure({ asyncUtilTimeout: 5000 });

const ana: User = {
  id: 'u1',
  handle: 'ana',
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Lima',
  businessName: null,
  profileImageUrl: null,
  plan: 'free',
  emailVerified: true,
  createdAt: '2025-01-01T00:00:00.000Z',
};

type AuthAnswer = User | 'signed-out' | 'server-error' | 'pending';

function authResponse(answer: AuthAnswer): Promise<Response> {
  switch (answer) {
    case 'pending':
      return new Promise(() => {});
    case 'signed-out':
      return Promise.resolve(
        new Response('{"message":"Unauthorized","code":"UNAUTHORIZED"}', { status: 401 }),
      );
    case 'server-error':
      return Promise.resolve(new Response('', { status: 500, statusText: 'Internal Server Error' }));
    default:
      return Promise.resolve(
        new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } }),
      );
  }
}

function renderAt(path: string, auth: AuthAnswer) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/auth/user' ? authResponse(auth) : new Response('', { status: 404 }),
    ),
  );
  // jsdom has no scrolling; ScrollRestoration calls it on navigation.
  vi.stubGlobal('scrollTo', () => {});
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('app routes', () => {
  it('shows a full-screen spinner while the auth check runs', async () => {
    renderAt('/', 'pending');
    expect(await screen.findByTestId('auth-loading')).toBeTruthy();
    expect(screen.queryByRole('banner')).toBeNull();
  });

  it('shows Page Not Found for an unknown route', async () => {
    renderAt('/no/such/page', 'signed-out');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go Home' }).getAttribute('href')).toBe('/');
  });

  it('shows the landing page at / when signed out and the marketplace when signed in', async () => {
    renderAt('/', 'signed-out');
    expect(await screen.findByRole('heading', { name: 'Shop live. Sell live.' })).toBeTruthy();
    cleanup();
    renderAt('/', ana);
    expect(await screen.findByRole('heading', { name: 'Marketplace' })).toBeTruthy();
  });

  it('treats a failed auth check as signed out', async () => {
    const router = renderAt('/dashboard', 'server-error');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('sends signed-out visitors from /dashboard to /', async () => {
    const router = renderAt('/dashboard', 'signed-out');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'Shop live. Sell live.' })).toBeTruthy();
  });

  it('sends signed-out visitors from /golive to / with a toast', async () => {
    const router = renderAt('/golive', 'signed-out');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getToasts()[0]).toMatchObject({
      title: 'Authentication Required',
      description: 'Please sign in to start a live stream.',
      variant: 'destructive',
    });
  });

  it.each([
    ['/checkout/6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab', 'Please sign in to complete your purchase.'],
    ['/subscribe', 'Please sign in to upgrade to Pro.'],
  ])('sends signed-out visitors from %s to / with a toast', async (path, description) => {
    const router = renderAt(path, 'signed-out');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getToasts()[0]).toMatchObject({ title: 'Authentication Required', description });
  });

  it('calls a checkout link without a product id invalid', async () => {
    renderAt('/checkout/p1', ana);
    expect(await screen.findByRole('heading', { level: 1, name: 'Invalid checkout URL' })).toBeTruthy();
  });

  it.each(['/signin', '/signup'])('sends signed-in users from %s to /dashboard', async (path) => {
    const router = renderAt(path, ana);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Welcome back, @ana')).toBeTruthy();
  });

  it('has the page that links an external sign-in to an existing account', async () => {
    renderAt('/link-account', 'signed-out');
    expect(await screen.findByRole('heading', { name: 'Link your sign-in' })).toBeTruthy();
  });

  it('titles a search Search Results', async () => {
    renderAt('/search?q=vinyl', ana);
    expect(await screen.findByRole('heading', { name: 'Search Results' })).toBeTruthy();
  });

  it.each([
    ['/mission', 'Our Mission'],
    ['/social-impact', 'Social Impact'],
    ['/about', 'About StreamShop'],
    ['/team', 'Our Team'],
    ['/blog', 'Blog'],
    ['/social', 'Social Commerce'],
    ['/stream-disc', 'The Future Is Here'],
    ['/stream-disc/music', 'Stream Disc: A Modern Alternative to CDs & Vinyl'],
    ['/stream-disc/film', 'Stream Disc: A Modern Alternative to DVDs & Blu-ray'],
    ['/explore', 'Marketplace'],
    ['/c/music', 'Marketplace'],
    ['/s/ana', '@ana'],
    ['/room/abc', 'Live Stream'],
  ])('renders %s', async (path, heading) => {
    renderAt(path, 'signed-out');
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
  });
});
