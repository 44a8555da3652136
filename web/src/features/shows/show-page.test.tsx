import type { User } from '@streamshop/contract/auth.ts';
import type { Show } from '@streamshop/contract/shows.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { ShowPage } from './show-page.tsx';

configure({ asyncUtilTimeout: 4000 });

const ID = '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab';
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

const aShow = (overrides: Partial<Show> = {}): Show => ({
  id: ID,
  title: 'Friday digs',
  description: 'Rare jazz pressings.',
  startsAt: inHours(26),
  timeZone: 'America/Chicago',
  coverUrl: null,
  status: 'scheduled',
  seller: { handle: 'groovevault', name: 'Groove Vault' },
  products: [
    {
      id: '0a1b2c3d-0000-4000-8000-000000000001',
      title: 'Kind of Blue',
      imageUrl: null,
      priceCents: 2500,
      stock: 2,
      condition: 'used',
      fulfillment: 'ship',
      shippingCents: 450,
    },
  ],
  roomName: null,
  reminders: 3,
  reminded: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

const user = (handle: string): User => ({
  id: `u-${handle}`,
  handle,
  email: `${handle}@example.com`,
  firstName: 'A',
  lastName: 'B',
  businessName: null,
  profileImageUrl: null,
  plan: 'free',
  emailVerified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderShow({
  show,
  viewer,
  path = `/shows/${ID}`,
}: {
  show: Show | null;
  viewer: User | null;
  path?: string;
}) {
  const calls: string[] = [];
  let current = show;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      calls.push(key);
      if (key === 'GET /api/auth/user') return viewer ? json(viewer) : json({ message: 'Unauthorized' }, 401);
      if (key === `GET /api/shows/${ID}`)
        return current ? json(current) : json({ message: 'Show not found' }, 404);
      if (current && key === `POST /api/shows/${ID}/reminder`) {
        current = { ...current, reminded: true, reminders: current.reminders + 1 };
        return json({ reminded: true, reminders: current.reminders });
      }
      if (current && key === `DELETE /api/shows/${ID}/reminder`) {
        current = { ...current, reminded: false, reminders: current.reminders - 1 };
        return json({ reminded: false, reminders: current.reminders });
      }
      if (key === `POST /api/shows/${ID}/live`) return json({ roomName: 'friday-digs-x1', stream: {} });
      return json({ message: 'No such endpoint' }, 404);
    }),
  );
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  const router = createMemoryRouter(
    [
      { path: '/shows/:id', Component: ShowPage },
      { path: '/room/:name', element: <p>Room page</p> },
      { path: '/signin', element: <p>Sign-in page</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { calls, router };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ShowPage', () => {
  it('shows a scheduled show to a visitor: seller, time, countdown, lineup, calendar links', async () => {
    renderShow({ show: aShow(), viewer: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Friday digs' })).toBeTruthy();
    expect(document.title).toBe('Friday digs · StreamShop');
    expect(screen.getByRole('link', { name: 'Groove Vault (@groovevault)' }).getAttribute('href')).toBe(
      '/s/groovevault',
    );
    expect(screen.getByTestId('show-time').textContent).toMatch(/your time/);
    expect(screen.getByRole('timer').getAttribute('aria-label')).toMatch(
      /^Starts in 1 day, (1 hour, 59|2 hours, 0) minutes$/,
    );
    expect(screen.getByRole('link', { name: 'Kind of Blue' }).getAttribute('href')).toBe(
      '/products/0a1b2c3d-0000-4000-8000-000000000001',
    );
    expect(screen.getByTestId('show-reminders').textContent).toBe('3 people asked to be reminded');
    expect(screen.getByTestId('show-ics').getAttribute('href')).toBe(`/api/shows/${ID}/calendar.ics`);
    expect(screen.getByTestId('show-google-calendar').getAttribute('href')).toMatch(
      /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&text=Friday%20digs/,
    );
    expect(screen.queryByTestId('show-go-live')).toBeNull();
  });

  it('sends a visitor who is signed out to sign in, to come back with the reminder set', async () => {
    const { router } = renderShow({ show: aShow(), viewer: null });
    const remind = await screen.findByRole('link', { name: 'Remind me' });
    expect(remind.getAttribute('href')).toBe(`/signin?next=${encodeURIComponent(`/shows/${ID}?remind=1`)}`);
    fireEvent.click(remind);
    await screen.findByText('Sign-in page');
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent(`/shows/${ID}?remind=1`)}`);
  });

  it('sets the reminder asked for before signing in, once, and drops the parameter', async () => {
    const { calls, router } = renderShow({
      show: aShow(),
      viewer: user('ana'),
      path: `/shows/${ID}?remind=1`,
    });
    expect(await screen.findByRole('button', { name: 'Reminder set' })).toBeTruthy();
    expect(calls.filter((call) => call === `POST /api/shows/${ID}/reminder`)).toHaveLength(1);
    expect(router.state.location.search).toBe('');
    expect(screen.getByTestId('show-reminders').textContent).toBe('4 people asked to be reminded');
  });

  it('toggles the reminder for a signed-in buyer', async () => {
    const { calls } = renderShow({ show: aShow(), viewer: user('ana') });
    const button = await screen.findByRole('button', { name: 'Remind me' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    const set = await screen.findByRole('button', { name: 'Reminder set' });
    expect(set.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('show-reminders').textContent).toBe('4 people asked to be reminded');
    fireEvent.click(set);
    await screen.findByRole('button', { name: 'Remind me' });
    expect(calls).toContain(`DELETE /api/shows/${ID}/reminder`);
    expect(screen.getByTestId('show-reminders').textContent).toBe('3 people asked to be reminded');
  });

  it('lets the seller go live from the show, into its room, or edit it in the dashboard', async () => {
    const { router } = renderShow({ show: aShow(), viewer: user('groovevault') });
    const controls = await screen.findByTestId('show-seller-controls');
    expect(within(controls).getByRole('link', { name: 'Edit in dashboard' }).getAttribute('href')).toBe(
      '/dashboard?tab=shows',
    );
    expect(screen.queryByRole('button', { name: 'Remind me' })).toBeNull();
    fireEvent.click(within(controls).getByRole('button', { name: 'Go live now' }));
    await screen.findByText('Room page');
    expect(router.state.location.pathname).toBe('/room/friday-digs-x1');
  });

  it.each([
    [{ status: 'live', roomName: 'friday-digs-x1' } as const, 'Watch live', '/room/friday-digs-x1'],
    [{ status: 'ended', roomName: 'friday-digs-x1' } as const, 'Watch the replay', '/room/friday-digs-x1'],
  ])('leads into the room once the show has begun (%o)', async (overrides, name, href) => {
    renderShow({ show: aShow(overrides), viewer: user('ana') });
    expect((await screen.findByRole('link', { name })).getAttribute('href')).toBe(href);
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.queryByTestId('show-remind')).toBeNull();
    expect(screen.queryByTestId('show-calendar')).toBeNull();
  });

  it('says so when the show was missed', async () => {
    renderShow({ show: aShow({ status: 'missed' }), viewer: null });
    expect((await screen.findByTestId('show-missed')).textContent).toMatch(/did not go live/);
    expect(screen.queryByTestId('show-remind')).toBeNull();
  });

  it('answers an unknown or malformed id with the not-found page', async () => {
    renderShow({ show: null, viewer: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Show Not Found' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Show Not Found · StreamShop'));
    cleanup();
    renderShow({ show: aShow(), viewer: null, path: '/shows/not-a-show' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Show Not Found' })).toBeTruthy();
  });
});
