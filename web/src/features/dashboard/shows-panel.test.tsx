import type { Show } from '@streamshop/contract/shows.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { ShowsPanel } from './shows-panel.tsx';
import { isoToZonedLocal } from './zoned-time.ts';

configure({ asyncUtilTimeout: 4000 });

const MINE = '/api/shows?scope=mine&limit=50';
const P1 = '0b7d2c1e-0000-4000-8000-000000000001';
const P2 = '0b7d2c1e-0000-4000-8000-000000000002';

const json = (body: unknown, status = 200) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const product = (id: string, title: string) => ({
  id,
  title,
  description: null,
  priceCents: 2500,
  condition: 'used',
  categoryId: 3,
  imageUrl: null,
  stock: 1,
  fulfillment: 'ship' as const,
  shippingCents: 0,
  isLiveLinked: false,
  streamId: null,
  seller: { id: 'u1', handle: 'ana', businessName: null, profileImageUrl: null, onboarded: false },
  createdAt: '2026-01-01T00:00:00.000Z',
});
const PRODUCTS = [product(P1, 'Blue Note LP'), product(P2, 'Kind of Blue')];

const aShow = (n: number, status: Show['status'], changes: Partial<Show> = {}): Show => ({
  id: `5a0d1c3e-0000-4000-8000-00000000000${n}`,
  title: `Show ${n}`,
  description: null,
  startsAt: '2026-12-02T00:00:00.000Z',
  timeZone: 'America/New_York',
  coverUrl: null,
  status,
  seller: { handle: 'ana', name: 'Ana' },
  products: [],
  roomName: status === 'live' || status === 'ended' ? `room-${n}` : null,
  reminders: 0,
  reminded: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...changes,
});

type Answer = (url: string, init?: RequestInit) => Response | undefined;

/** The panel at `entry` over `shows`; `answer` may answer a call first (a POST, a DELETE). */
function renderPanel(shows: Show[], answer: Answer = () => undefined, entry = '/dashboard?tab=shows') {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const answered = answer(url, init);
    if (answered) return answered;
    if (url === MINE) return json({ shows });
    if (url === '/api/products/mine') return json(PRODUCTS);
    return json({ message: 'Not here' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter(
    [
      { path: '/dashboard', element: <ShowsPanel /> },
      { path: '/room/:name', element: <p>The room</p> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fetchMock, router };
}

/** The calls made other than the list reads. */
const writes = (fetchMock: ReturnType<typeof renderPanel>['fetchMock']) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([url, init]) => ({
      url,
      method: init?.method,
      body: init?.body ? JSON.parse(String(init.body)) : null,
    }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

// The dialog draws some 400 time zones, which jsdom takes its time over.
describe('the Shows tab', { timeout: 15_000 }, () => {
  it('lists each show with its status, its time in its zone, its products and reminders', async () => {
    renderPanel([
      aShow(1, 'scheduled', { products: PRODUCTS, reminders: 1 }),
      aShow(2, 'live'),
      aShow(3, 'ended', { reminders: 12 }),
      aShow(4, 'missed'),
    ]);
    const rows = await screen.findAllByTestId('dashboard-show');
    expect(rows.map((row) => within(row).getByTestId('dashboard-show-status').textContent)).toEqual([
      'Scheduled',
      'Live',
      'Ended',
      'Missed',
    ]);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByTestId('dashboard-show-time').textContent?.replace(/\s/g, ' ')).toBe(
      'Tue, Dec 1, 2026, 7:00 PM EST',
    );
    expect(first.getByTestId('dashboard-show-products').textContent).toBe('2 products');
    expect(first.getByTestId('dashboard-show-reminders').textContent).toBe('1 reminder');
    expect(within(rows[2] as HTMLElement).getByTestId('dashboard-show-reminders').textContent).toBe(
      '12 reminders',
    );

    // What each status offers.
    const actions = rows.map((row) =>
      [...row.querySelectorAll('a, button')].map((control) => control.getAttribute('aria-label')),
    );
    expect(actions).toEqual([
      ['Go live with Show 1', 'View Show 1', 'Edit Show 1', 'Delete Show 1'],
      ['Watch Show 2', 'View Show 2'],
      ['Replay Show 3', 'View Show 3', 'Delete Show 3'],
      ['View Show 4', 'Delete Show 4'],
    ]);
    expect(
      within(rows[1] as HTMLElement)
        .getByTestId('show-room-link')
        .getAttribute('href'),
    ).toBe('/room/room-2');
    expect(first.getByTestId('show-view-link').getAttribute('href')).toBe(
      `/shows/${aShow(1, 'scheduled').id}`,
    );
  });

  it('offers to schedule the first show when there is none', async () => {
    renderPanel([]);
    const empty = await screen.findByTestId('dashboard-shows-empty');
    fireEvent.click(within(empty).getByRole('button', { name: 'Schedule a show' }));
    expect(await screen.findByRole('dialog', { name: 'Schedule a Show' })).toBeTruthy();
  });

  it('schedules a show: the time read in the chosen zone, the lineup in the order ticked', async () => {
    const { fetchMock } = renderPanel([], (url, init) =>
      url === '/api/shows' && init?.method === 'POST' ? json(aShow(5, 'scheduled'), 201) : undefined,
    );
    fireEvent.click(await screen.findByTestId('schedule-show'));
    const dialog = within(await screen.findByTestId('show-dialog'));
    const local = isoToZonedLocal(new Date(Date.now() + 30 * 86_400_000).toISOString(), 'Asia/Kolkata');
    fireEvent.change(dialog.getByTestId('show-title-input'), { target: { value: 'Jazz night' } });
    fireEvent.change(dialog.getByTestId('show-starts-at-input'), { target: { value: local } });
    fireEvent.change(dialog.getByTestId('show-time-zone-select'), { target: { value: 'Asia/Kolkata' } });
    fireEvent.click(await dialog.findByLabelText(/Kind of Blue/));
    fireEvent.click(dialog.getByLabelText(/Blue Note LP/));
    expect(dialog.getAllByTestId('show-lineup-place').map((place) => place.textContent)).toEqual([
      'Number 2',
      'Number 1',
    ]);
    fireEvent.click(dialog.getByTestId('show-submit'));
    await waitFor(() => expect(getToasts().map((toast) => toast.title)).toContain('Show scheduled'));
    expect(writes(fetchMock)).toEqual([
      {
        url: '/api/shows',
        method: 'POST',
        body: {
          title: 'Jazz night',
          description: null,
          startsAt: `${local}:00+05:30`,
          timeZone: 'Asia/Kolkata',
          coverUrl: null,
          productIds: [P2, P1],
        },
      },
    ]);
  });

  it('shows what is wrong beside the fields, from the form and from the server', async () => {
    const { fetchMock } = renderPanel([], (url, init) =>
      url === '/api/shows' && init?.method === 'POST'
        ? json(
            {
              message: 'Invalid startsAt: must be in the future',
              code: 'VALIDATION_FAILED',
              fields: { startsAt: 'must be in the future' },
            },
            400,
          )
        : undefined,
    );
    fireEvent.click(await screen.findByTestId('schedule-show'));
    const dialog = within(await screen.findByTestId('show-dialog'));
    fireEvent.click(dialog.getByTestId('show-submit'));
    const title = dialog.getByTestId('show-title-input');
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(title.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Title is required',
    );
    expect(dialog.getByText('Choose a date and time')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(writes(fetchMock)).toEqual([]);

    // The browser thinks the time is ahead; the server's clock says otherwise.
    const local = isoToZonedLocal(new Date(Date.now() + 86_400_000).toISOString(), 'UTC');
    fireEvent.change(title, { target: { value: 'Jazz night' } });
    fireEvent.change(dialog.getByTestId('show-starts-at-input'), { target: { value: local } });
    fireEvent.change(dialog.getByTestId('show-time-zone-select'), { target: { value: 'UTC' } });
    fireEvent.click(dialog.getByTestId('show-submit'));
    expect(await dialog.findByText('Date and time must be in the future')).toBeTruthy();
    expect(dialog.getByTestId('show-starts-at-input').getAttribute('aria-invalid')).toBe('true');
  });

  it('edits a scheduled show with only what changed', async () => {
    const show = aShow(1, 'scheduled', { products: [] });
    const { fetchMock } = renderPanel([show], (_url, init) =>
      init?.method === 'PATCH' ? json({ ...show, title: 'Renamed' }) : undefined,
    );
    fireEvent.click(await screen.findByTestId('show-edit'));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Show' }));
    expect((dialog.getByTestId('show-starts-at-input') as HTMLInputElement).value).toBe('2026-12-01T19:00');
    expect((dialog.getByTestId('show-time-zone-select') as HTMLSelectElement).value).toBe('America/New_York');
    fireEvent.change(dialog.getByTestId('show-title-input'), { target: { value: 'Renamed' } });
    fireEvent.click(dialog.getByTestId('show-submit'));
    await waitFor(() => expect(getToasts().map((toast) => toast.title)).toContain('Show updated'));
    expect(writes(fetchMock)).toEqual([
      { url: `/api/shows/${show.id}`, method: 'PATCH', body: { title: 'Renamed' } },
    ]);
  });

  it('goes live from a scheduled show into its room', async () => {
    const show = aShow(1, 'scheduled');
    const { router } = renderPanel([show], (url, init) =>
      url === `/api/shows/${show.id}/live` && init?.method === 'POST'
        ? json({ roomName: 'friday-drop', stream: {} })
        : undefined,
    );
    fireEvent.click(await screen.findByTestId('show-go-live'));
    await screen.findByText('The room');
    expect(router.state.location.pathname).toBe('/room/friday-drop');
  });

  it('deletes a show once asked, and says so', async () => {
    const show = aShow(4, 'missed', { reminders: 3 });
    const { fetchMock } = renderPanel([show], (_url, init) =>
      init?.method === 'DELETE' ? json(null, 204) : undefined,
    );
    fireEvent.click(await screen.findByTestId('show-delete'));
    const confirm = await screen.findByTestId('delete-show-dialog');
    expect(confirm.textContent).toContain('3 people asked to be reminded of it.');
    fireEvent.click(within(confirm).getByTestId('delete-show-confirm'));
    await waitFor(() => expect(getToasts().map((toast) => toast.title)).toContain('Show deleted'));
    expect(writes(fetchMock)).toEqual([{ url: `/api/shows/${show.id}`, method: 'DELETE', body: null }]);
  });

  it('opens the schedule dialog from ?schedule=new and leaves the tab in the address', async () => {
    const { router } = renderPanel([], undefined, '/dashboard?tab=shows&schedule=new');
    expect(await screen.findByRole('dialog', { name: 'Schedule a Show' })).toBeTruthy();
    expect(router.state.location.search).toBe('?tab=shows');
  });
});
