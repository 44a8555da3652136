import type { SiteLinks } from '@streamshop/contract/site.ts';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetToasts } from '../components/ui/use-toast.ts';
import { siteLinksQueryOptions } from '../lib/api/site-links.ts';
import { AppProviders } from './providers.tsx';
import { createQueryClient } from './query-client.ts';
import { routes } from './routes.tsx';

// Routes are lazy chunks; on a busy machine the first render of one can take over a second.
configure({ asyncUtilTimeout: 5000 });

const UNSET: SiteLinks = {
  dropMode: null,
  streamDisc: null,
  streamshopLive: null,
  newsletterForm: null,
  pressKit: null,
};

/** The blog (nav bar, drawer and the article's press-kit link) for a signed-out visitor. */
async function renderBlogWith(links: SiteLinks) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/site/links') {
        return new Response(JSON.stringify(links), { headers: { 'content-type': 'application/json' } });
      }
      if (url === '/api/auth/user') return new Response('{"message":"Unauthorized"}', { status: 401 });
      return new Response('', { status: 404 });
    }),
  );
  vi.stubGlobal('scrollTo', () => {});
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/blog'] })} />
    </AppProviders>,
  );
  await screen.findByRole('heading', { level: 1, name: 'Blog' });
  // The server's answer has been drawn: whatever is missing now is missing for good.
  await waitFor(() =>
    expect(queryClient.getQueryState(siteLinksQueryOptions.queryKey)?.status).toBe('success'),
  );
}

function openDrawer() {
  fireEvent.click(screen.getByTestId('drawer-toggle'));
  return screen.findByTestId('drawer');
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('external links from the server settings', () => {
  it('shows no Drop Mode, product logos or press-kit link while their settings are empty', async () => {
    await renderBlogWith(UNSET);
    expect(screen.queryByTestId('nav-drop-mode')).toBeNull();
    expect(screen.queryByTestId('blog-external-link')).toBeNull();
    const drawer = await openDrawer();
    expect(within(drawer).queryByText('Our products')).toBeNull();
    expect(document.querySelectorAll('a[href*=".example"]')).toHaveLength(0);
  });

  it('shows each configured link as before: a new tab without the opener', async () => {
    await renderBlogWith({
      ...UNSET,
      dropMode: 'https://dropmode.test/',
      pressKit: 'https://press.test/kit',
    });
    const dropMode = await screen.findByTestId('nav-drop-mode');
    expect(dropMode.getAttribute('href')).toBe('https://dropmode.test/');
    expect(dropMode.getAttribute('target')).toBe('_blank');
    expect(dropMode.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByTestId('blog-external-link').getAttribute('href')).toBe('https://press.test/kit');
    // Only the product whose address is set gets a logo.
    const drawer = await openDrawer();
    const products = within(drawer).getByTestId('drawer-products');
    expect(
      within(products)
        .getByRole('link', { name: /Drop Mode/ })
        .getAttribute('href'),
    ).toBe('https://dropmode.test/');
    expect(within(products).queryByRole('link', { name: /Stream Disc/ })).toBeNull();
  });
});

describe('footer', () => {
  it('links to the Help Center, Contact Us, Privacy Policy and Terms of Service pages', async () => {
    await renderBlogWith(UNSET);
    const footer = within(screen.getByTestId('footer'));
    for (const [name, href] of [
      ['Help Center', '/help'],
      ['Contact Us', '/contact'],
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
    ]) {
      expect(footer.getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    fireEvent.click(footer.getByRole('link', { name: 'Privacy Policy' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
  });
});
