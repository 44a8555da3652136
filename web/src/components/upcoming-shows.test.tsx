import type { Show } from '@streamshop/contract/shows.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpcomingShows } from './upcoming-shows.tsx';

configure({ asyncUtilTimeout: 4000 });

const show = (id: string, hours: number): Show => ({
  id,
  title: `Show ${id}`,
  description: null,
  startsAt: new Date(Date.now() + hours * 3_600_000 + 30_000).toISOString(),
  timeZone: 'UTC',
  coverUrl: null,
  status: 'scheduled',
  seller: { handle: 'groovevault', name: 'Groove Vault' },
  products: [],
  roomName: null,
  reminders: 0,
  reminded: false,
  createdAt: '2026-11-20T10:00:00.000Z',
});

function renderStrip(answer: Response, props: Parameters<typeof UpcomingShows>[0] = {}) {
  const fetch = vi.fn(async (_url: string) => answer);
  vi.stubGlobal('fetch', fetch);
  const view = render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <UpcomingShows {...props} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { fetch, view };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('UpcomingShows', () => {
  it('lists the shows soonest first, each a card to its page saying how soon', async () => {
    const { fetch } = renderStrip(json({ shows: [show('a', 2), show('b', 50)] }), {
      seller: 'groovevault',
      limit: 8,
    });
    expect(await screen.findByRole('heading', { level: 2, name: 'Upcoming shows' })).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith('/api/shows?limit=8&seller=groovevault', expect.anything());
    const cards = screen.getAllByTestId('upcoming-show-card');
    expect(cards.map((card) => card.getAttribute('href'))).toEqual(['/shows/a', '/shows/b']);
    expect(screen.getAllByTestId('upcoming-show-starts-in').map((chip) => chip.textContent)).toEqual([
      'in 2 h',
      'in 2 days',
    ]);
    // On a seller's own storefront the seller goes without saying.
    expect(screen.queryByText('@groovevault')).toBeNull();
  });

  it('renders nothing when no show is coming up, or when the list cannot be read', async () => {
    const empty = renderStrip(json({ shows: [] }));
    await waitFor(() => expect(empty.fetch).toHaveBeenCalled());
    expect(empty.view.container.innerHTML).toBe('');
    cleanup();
    const failed = renderStrip(json({ message: 'No user has this handle' }, 404), { seller: 'nobody' });
    await waitFor(() => expect(failed.fetch).toHaveBeenCalled());
    expect(failed.view.container.innerHTML).toBe('');
  });
});
