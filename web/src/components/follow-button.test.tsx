import type { User } from '@streamshop/contract/auth.ts';
import type { FollowState } from '@streamshop/contract/follows.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authUserQueryOptions } from '../lib/api/auth.ts';
import { FollowButton, followerCount } from './follow-button.tsx';

const user = (handle: string): User => ({
  id: `id-${handle}`,
  handle,
  email: `${handle}@example.com`,
  firstName: 'Ana',
  lastName: 'Lima',
  businessName: null,
  profileImageUrl: null,
  plan: 'free',
  emailVerified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A response the test releases when it wants: the button's state in between is the guess. */
function deferred() {
  let resolve: (response: Response) => void = () => {};
  const promise = new Promise<Response>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const FOLLOW_URL = '/api/sellers/crates/follow';

function renderButton(
  me: User | null,
  state: FollowState,
  change: (method: string) => Promise<Response> = async () => json({}),
) {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      requests.push(`${method} ${url}`);
      if (url !== FOLLOW_URL) return json({ message: 'Not found' }, 404);
      return method === 'GET' ? json(state) : change(method);
    }),
  );
  const queryClient = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  queryClient.setQueryData(authUserQueryOptions.queryKey, me);
  const router = createMemoryRouter(
    [
      { path: '/s/:handle', element: <FollowButton handle="crates" /> },
      { path: '/signin', element: <p>Sign in page</p> },
    ],
    { initialEntries: ['/s/crates?tab=vods'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { requests, router };
}

// Its name stays "Follow @crates" pressed or not (testing-library leaves aria-hidden text out of it).
const button = () => screen.getByRole('button', { name: 'Follow @crates' });
/** What a sighted user reads on it: "Follow" or "Following" (the handle is for screen readers). */
const word = () => button().textContent?.replace(' @crates', '');
const count = () => screen.getByTestId('follower-count').textContent;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('FollowButton', () => {
  it('sends a visitor signed out to sign in, coming back to this page', async () => {
    renderButton(null, { handle: 'crates', following: false, followers: 12 });
    await waitFor(() => expect(count()).toBe('12 followers'));
    const link = screen.getByRole('link', { name: 'Follow @crates' });
    const url = new URL(link.getAttribute('href') ?? '', 'https://shop.test');
    expect([url.pathname, url.searchParams.get('next')]).toEqual(['/signin', '/s/crates?tab=vods']);
  });

  it('is an unpressed Follow for a signed-in buyer who does not follow yet', async () => {
    renderButton(user('ana'), { handle: 'crates', following: false, followers: 1 });
    await waitFor(() => expect(count()).toBe('1 follower'));
    expect([word(), button().getAttribute('aria-pressed')]).toEqual(['Follow', 'false']);
  });

  it('is a pressed Following for one who follows', async () => {
    renderButton(user('ana'), { handle: 'crates', following: true, followers: 3 });
    await waitFor(() => expect(button().getAttribute('aria-pressed')).toBe('true'));
    expect([word(), count()]).toEqual(['Following', '3 followers']);
  });

  it('shows the follow at once, then the count the server answers', async () => {
    const answer = deferred();
    const { requests } = renderButton(
      user('ana'),
      { handle: 'crates', following: false, followers: 12 },
      () => answer.promise,
    );
    await waitFor(() => expect(count()).toBe('12 followers'));
    fireEvent.click(button());
    await waitFor(() => expect(button().getAttribute('aria-pressed')).toBe('true'));
    expect(count()).toBe('13 followers');
    expect(requests).toContain(`POST ${FOLLOW_URL}`);

    // Others followed meanwhile: the answer's count wins over the guess.
    await act(async () => answer.resolve(json({ handle: 'crates', following: true, followers: 20 })));
    await waitFor(() => expect(count()).toBe('20 followers'));
    expect(button().getAttribute('aria-pressed')).toBe('true');
  });

  it('unfollows with DELETE', async () => {
    const { requests } = renderButton(
      user('ana'),
      { handle: 'crates', following: true, followers: 5 },
      async () => json({ handle: 'crates', following: false, followers: 4 }),
    );
    await waitFor(() => expect(button().getAttribute('aria-pressed')).toBe('true'));
    fireEvent.click(button());
    await waitFor(() => expect(count()).toBe('4 followers'));
    expect([word(), button().getAttribute('aria-pressed')]).toEqual(['Follow', 'false']);
    expect(requests).toContain(`DELETE ${FOLLOW_URL}`);
  });

  it('puts the state back when the server refuses', async () => {
    const answer = deferred();
    renderButton(user('ana'), { handle: 'crates', following: false, followers: 12 }, () => answer.promise);
    await waitFor(() => expect(count()).toBe('12 followers'));
    fireEvent.click(button());
    await waitFor(() => expect(count()).toBe('13 followers'));
    await act(async () => answer.resolve(json({ message: 'Something broke' }, 500)));
    await waitFor(() => expect(count()).toBe('12 followers'));
    expect(button().getAttribute('aria-pressed')).toBe('false');
  });

  it('sends one whose session ended to sign in, coming back here', async () => {
    const { router } = renderButton(
      user('ana'),
      { handle: 'crates', following: false, followers: 12 },
      async () => json({ message: 'Unauthorized' }, 401),
    );
    await waitFor(() => expect(count()).toBe('12 followers'));
    fireEvent.click(button());
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/s/crates?tab=vods');
  });

  it('is not there for the seller on their own pages', async () => {
    const { requests } = renderButton(user('Crates'), { handle: 'crates', following: false, followers: 12 });
    await act(async () => {});
    expect(screen.queryByTestId('follow')).toBeNull();
    expect(requests).toEqual([]);
  });
});

describe('followerCount', () => {
  it.each([
    [0, '0 followers'],
    [1, '1 follower'],
    [1204, '1,204 followers'],
  ])('%i is "%s"', (followers, words) => {
    expect(followerCount(followers)).toBe(words);
  });
});
