import type { User } from '@streamshop/contract/auth.ts';
import type { Notification } from '@streamshop/contract/notifications.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authUserQueryOptions } from '../lib/api/auth.ts';
import { bellLabel, parseNudge, relativeTime, unreadBadge } from '../lib/notifications.ts';
import { ScriptedSocket } from '../lib/scripted-socket.ts';
import { useAuth } from '../lib/session/use-auth.ts';
import { NotificationBell } from './notification-bell.tsx';
import { createQueryClient } from './query-client.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const ana: User = {
  id: 'ana',
  handle: 'ana',
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Lima',
  businessName: null,
  profileImageUrl: null,
  plan: 'free',
  emailVerified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};

const notification = (id: string, read: boolean, text: string, link: string): Notification => ({
  id,
  kind: 'live',
  text,
  link,
  createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
  read,
});

const LATEST = [
  notification('n-2', false, '@crates is live now: Friday digs', '/room/friday-digs'),
  notification('n-1', false, '@vinyl is live now: Jazz hour', '/room/jazz-hour'),
  notification('n-0', true, '@crates is live now: Monday', '/room/monday'),
];

/** The nav bar's part: the bell above every page, and the app asking who is signed in. */
function Shell() {
  useAuth();
  return (
    <>
      <NotificationBell userId="ana" />
      <Outlet />
    </>
  );
}

/** The bell of a signed-in user, with the server's answers counted. */
function renderBell(reads: { unread: number } = { unread: 1 }) {
  const posts: unknown[] = [];
  const gets: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/auth/user') {
        gets.push(url);
        return json({ message: 'Unauthorized' }, 401);
      }
      if (url === '/api/notifications' && (init?.method ?? 'GET') === 'GET') {
        gets.push(url);
        return json({ unread: 2, notifications: LATEST });
      }
      if (url === '/api/notifications/read' && init?.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return json(reads);
      }
      gets.push(url);
      return json({ message: 'Not found' }, 404);
    }),
  );
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryOptions.queryKey, ana);
  const router = createMemoryRouter(
    [
      {
        element: <Shell />,
        children: [
          { path: '/', element: <p>Home</p> },
          { path: '/room/:name', element: <p>A room</p> },
          { path: '/notifications', element: <p>All notifications</p> },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const socket = ScriptedSocket.made.at(-1);
  if (!socket) throw new Error('the bell opened no socket');
  return { socket, posts, gets, router };
}

const bell = () => screen.getByTestId('bell-button');
const badge = () => screen.queryByTestId('bell-badge')?.textContent ?? null;
const label = () => bell().getAttribute('aria-label');
const nudge = (socket: ScriptedSocket, unread: number) =>
  act(() => socket.receive(JSON.stringify({ type: 'notifications', unread })));
/** The bell draws the count the cache was given on its next turn. */
const showsCount = (expected: [string, string | null]) =>
  waitFor(() => expect([label(), badge()]).toEqual(expected));

beforeEach(() => {
  ScriptedSocket.made = [];
  vi.stubGlobal('WebSocket', ScriptedSocket);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the nav bar’s bell', () => {
  it('opens one socket to /ws/notifications and says no count before the server does', () => {
    const { socket } = renderBell();
    expect(new URL(socket.url).pathname).toBe('/ws/notifications');
    expect([label(), badge()]).toEqual(['Notifications', null]);
  });

  it('shows the unread count the socket sends, and follows it as it changes', async () => {
    const { socket } = renderBell();
    act(() => socket.open());
    nudge(socket, 3);
    await showsCount(['Notifications, 3 unread', '3']);
    nudge(socket, 120);
    await showsCount(['Notifications, 120 unread', '99+']);
    nudge(socket, 0);
    await showsCount(['Notifications', null]);
  });

  it('keeps its count through a frame it does not understand', async () => {
    const { socket } = renderBell();
    act(() => socket.open());
    act(() => socket.receive('{"type":"chat","text":"hi"}'));
    act(() => socket.receive('not json'));
    nudge(socket, 2);
    await showsCount(['Notifications, 2 unread', '2']);
    act(() => socket.receive('{"type":"notifications","unread":"lots"}'));
    await showsCount(['Notifications, 2 unread', '2']);
    expect(ScriptedSocket.made).toHaveLength(1);
  });

  it('reconnects after the connection drops, within the first backoff', () => {
    vi.useFakeTimers();
    const { socket } = renderBell();
    act(() => socket.open());
    act(() => socket.drop(1006));
    expect(ScriptedSocket.made).toHaveLength(1);
    act(() => vi.advanceTimersByTime(500));
    expect(ScriptedSocket.made).toHaveLength(2);
  });

  it('stops when the server closes it for a session that ended, and asks who is signed in', async () => {
    const { socket, gets } = renderBell();
    act(() => socket.open());
    expect(gets).toEqual([]);
    act(() => socket.drop(4001));
    await waitFor(() => expect(gets).toContain('/api/auth/user'));
    expect(ScriptedSocket.made).toHaveLength(1);
  });

  it('opens a panel with the latest; one clicked is marked read and its link followed', async () => {
    const { socket, posts, router } = renderBell({ unread: 1 });
    act(() => socket.open());
    nudge(socket, 2);
    await showsCount(['Notifications, 2 unread', '2']);
    fireEvent.click(bell());
    expect(bell().getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByTestId('bell-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('notification')).toHaveLength(3));
    expect(within(panel).getAllByTestId('unread-dot')).toHaveLength(2);
    expect(within(panel).getAllByText('5 minutes ago')).toHaveLength(3);

    fireEvent.click(within(panel).getByRole('link', { name: /Friday digs/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/room/friday-digs'));
    expect(posts).toEqual([{ ids: ['n-2'] }]);
    await showsCount(['Notifications, 1 unread', '1']);
    expect(screen.queryByTestId('bell-panel')).toBeNull();
  });

  it('marks every one read with "Mark all read", and its badge goes', async () => {
    const { socket, posts } = renderBell({ unread: 0 });
    act(() => socket.open());
    nudge(socket, 2);
    fireEvent.click(bell());
    await waitFor(() => expect(screen.getAllByTestId('unread-dot')).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(posts).toEqual([{}]));
    await showsCount(['Notifications', null]);
    expect(screen.queryAllByTestId('unread-dot')).toHaveLength(0);
  });

  it('closes its panel on Escape, giving focus back to the bell', () => {
    renderBell();
    fireEvent.click(bell());
    expect(screen.getByTestId('bell-panel')).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByTestId('bell-panel')).toBeNull();
    expect(document.activeElement).toBe(bell());
  });
});

describe('the bell’s words', () => {
  it.each([
    [undefined, 'Notifications', null],
    [0, 'Notifications', null],
    [1, 'Notifications, 1 unread', '1'],
    [99, 'Notifications, 99 unread', '99'],
    [100, 'Notifications, 100 unread', '99+'],
  ])('%s unread: "%s", badge %s', (unread, label, text) => {
    expect([bellLabel(unread), unreadBadge(unread)]).toEqual([label, text]);
  });

  it('reads only a notifications frame with a whole, non-negative count', () => {
    expect(parseNudge('{"type":"notifications","unread":4}')).toEqual({ type: 'notifications', unread: 4 });
    expect(parseNudge('{"type":"notifications","unread":-1}')).toBeNull();
    expect(parseNudge('{"type":"notifications","unread":1.5}')).toBeNull();
    expect(parseNudge('{"type":"chat","unread":4}')).toBeNull();
    expect(parseNudge('null')).toBeNull();
  });

  it('says when in words', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const ago = (ms: number) => relativeTime(new Date(now - ms).toISOString(), now);
    expect(ago(20_000)).toBe('just now');
    expect(ago(5 * 60_000)).toBe('5 minutes ago');
    expect(ago(3 * 3_600_000)).toBe('3 hours ago');
    expect(ago(26 * 3_600_000)).toBe('yesterday');
    expect(ago(3 * 86_400_000)).toBe('3 days ago');
    expect(ago(30 * 86_400_000)).toBe('Feb 8');
  });
});
