import type { PendingAccountLink } from '@streamshop/contract/account-link.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { resetToasts } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { LinkAccountPage } from './link-account-page.tsx';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const withPassword: PendingAccountLink = {
  provider: 'google',
  email: 'ana@example.com',
  hasPassword: true,
  signInWith: [],
};

/** The server's answers by method: GET describes the pending link, POST links, DELETE cancels. */
function renderLinkPage(answers: {
  get: () => Response;
  post?: (body: unknown) => Response;
  delete?: () => Response;
}) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url !== '/api/auth/link') return new Response('', { status: 404 });
    const method = init?.method ?? 'GET';
    if (method === 'POST')
      return answers.post?.(JSON.parse(String(init?.body))) ?? new Response('', { status: 500 });
    if (method === 'DELETE') return answers.delete?.() ?? new Response(null, { status: 204 });
    return answers.get();
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, null);
  const router = createMemoryRouter(
    [
      { path: '/link-account', Component: LinkAccountPage },
      { path: '/dashboard', element: <p>dashboard</p> },
      { path: '/signin', element: <p>sign in</p> },
    ],
    { initialEntries: ['/link-account'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const calls = (method: string) =>
    fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);
  return { router, queryClient, calls };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('link account page', () => {
  it("says an account with the email exists and links with that account's password", async () => {
    const user = { id: 'u1', handle: 'ana', plan: 'free' };
    const { router, queryClient, calls } = renderLinkPage({
      get: () => json(withPassword),
      post: () => json(user),
    });
    expect(await screen.findByRole('heading', { name: 'Link your Google sign-in' })).toBeTruthy();
    expect(screen.getByText('ana@example.com')).toBeTruthy();
    expect(screen.getByTestId('link-explanation').textContent).toBe(
      "Enter that account's password to link your Google sign-in to it. After that, Continue with Google signs you straight in.",
    );
    fireEvent.change(screen.getByTestId('link-password'), { target: { value: 'ana-secret-1' } });
    fireEvent.click(screen.getByTestId('link-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(calls('POST').map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { password: 'ana-secret-1' },
    ]);
    expect(queryClient.getQueryData(authUserQueryKey)).toEqual(user);
  });

  it("shows the server's message for a wrong password and stays", async () => {
    const { router } = renderLinkPage({
      get: () => json(withPassword),
      post: () =>
        json(
          { message: 'Incorrect password for the account with this email.', code: 'INVALID_CREDENTIALS' },
          401,
        ),
    });
    fireEvent.change(await screen.findByTestId('link-password'), { target: { value: 'wrong-one' } });
    fireEvent.click(screen.getByTestId('link-submit'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Incorrect password for the account with this email.',
    );
    expect(router.state.location.pathname).toBe('/link-account');
    expect((screen.getByTestId('link-password') as HTMLInputElement).value).toBe('');
  });

  it('asks for the password before sending anything', async () => {
    const { calls } = renderLinkPage({ get: () => json(withPassword) });
    fireEvent.click(await screen.findByTestId('link-submit'));
    expect(screen.getByRole('alert').textContent).toBe("Please enter that account's password.");
    expect(calls('POST')).toHaveLength(0);
  });

  it('drops the pending link on Cancel and goes back to sign in', async () => {
    const { router, calls } = renderLinkPage({ get: () => json(withPassword) });
    fireEvent.click(await screen.findByTestId('link-cancel'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(calls('DELETE')).toHaveLength(1);
    expect(calls('POST')).toHaveLength(0);
  });

  it('says so when nothing is waiting to be linked (expired)', async () => {
    renderLinkPage({
      get: () =>
        json(
          {
            message: 'This request to link your Google sign-in has expired. Continue with Google again.',
            code: 'BAD_REQUEST',
          },
          410,
        ),
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This request to link your Google sign-in has expired. Continue with Google again.',
    );
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/signin');
    expect(screen.queryByTestId('link-password')).toBeNull();
  });

  it('sends an account made with another provider to that provider instead of asking for a password', async () => {
    renderLinkPage({
      get: () =>
        json({ provider: 'google', email: 'pat@example.com', hasPassword: false, signInWith: ['replit'] }),
    });
    expect((await screen.findByTestId('link-explanation')).textContent).toBe(
      'That account has no password: it signs in with Replit. Continue with Replit, the way you first signed in, and your Google sign-in is linked to it as well.',
    );
    expect(screen.getByTestId('link-continue-replit').getAttribute('href')).toBe('/api/auth/replit');
    expect(screen.queryByTestId('link-password')).toBeNull();
    expect(screen.getByTestId('link-cancel')).toBeTruthy();
  });
});
