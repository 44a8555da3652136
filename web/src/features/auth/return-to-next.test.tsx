import { EXTERNAL_PROVIDERS_URL } from '@streamshop/contract/auth.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { resetToasts } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { SignInPage } from './sign-in-page.tsx';
import { SignUpPage } from './sign-up-page.tsx';

/** /signin and /signup with ?next= (a signed-out Buy Now): back there once signed in. */

configure({ asyncUtilTimeout: 4000 });

const CHECKOUT = '/checkout/6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab';
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ana = { id: 'u1', handle: 'ana', plan: 'free' };

/** Renders `entry` with every auth call answered by `ana`; `signedIn` starts with her session. */
function renderAt(entry: string, signedIn = false) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => (url === EXTERNAL_PROVIDERS_URL ? json({ providers: [] }) : json(ana))),
  );
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, signedIn ? ana : null);
  const router = createMemoryRouter(
    [
      { path: '/signin', Component: SignInPage },
      { path: '/signup', Component: SignUpPage },
      { path: '/dashboard', element: <p>dashboard</p> },
      { path: '/checkout/:id', element: <p>checkout</p> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const fill = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

function signIn() {
  fill('signin-handle', 'ana');
  fill('signin-password', 'correct horse');
  fireEvent.click(screen.getByTestId('signin-submit'));
}

function signUp() {
  fill('signup-first-name', 'Ana');
  fill('signup-last-name', 'Lima');
  fill('signup-email', 'ana@example.com');
  fill('signup-handle', 'ana');
  fill('signup-password', 'correct horse');
  fill('signup-confirm-password', 'correct horse');
  fireEvent.click(screen.getByTestId('signup-submit'));
}

const linkTo = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('?next= on the sign-in and sign-up pages', () => {
  it('signs in and goes to the checkout it names', async () => {
    const router = renderAt(`/signin?next=${encodeURIComponent(CHECKOUT)}`);
    signIn();
    await waitFor(() => expect(router.state.location.pathname).toBe(CHECKOUT));
  });

  it('signs up and goes there too (the new account is signed in at once)', async () => {
    const router = renderAt(`/signup?next=${CHECKOUT}`);
    signUp();
    await waitFor(() => expect(router.state.location.pathname).toBe(CHECKOUT));
  });

  it.each(['//evil.example', '/\\evil.example', 'https://evil.example', '/%2F%2Fevil.example'])(
    'goes to /dashboard instead of the off-site next %j',
    async (next) => {
      const router = renderAt(`/signin?${new URLSearchParams({ next })}`);
      signIn();
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    },
  );

  it('keeps next on the links between the two pages, and drops an off-site one', () => {
    renderAt(`/signin?next=${CHECKOUT}`);
    expect(linkTo('Sign up')).toBe(`/signup?next=${encodeURIComponent(CHECKOUT)}`);
    cleanup();
    renderAt(`/signup?next=${CHECKOUT}`);
    expect(linkTo('Log in')).toBe(`/signin?next=${encodeURIComponent(CHECKOUT)}`);
    cleanup();
    renderAt('/signin?next=//evil.example');
    expect(linkTo('Sign up')).toBe('/signup');
  });

  it('sends a user who is already signed in straight on to next', async () => {
    const router = renderAt(`/signin?next=${CHECKOUT}`, true);
    await waitFor(() => expect(router.state.location.pathname).toBe(CHECKOUT));
  });
});
