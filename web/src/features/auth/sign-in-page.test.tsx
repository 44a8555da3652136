import { EXTERNAL_PROVIDERS_URL, type ExternalProviders } from '@streamshop/contract/auth.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { externalProvidersQueryOptions } from '../../lib/api/external-providers.ts';
import { SignInPage } from './sign-in-page.tsx';

/**
 * The sign-in page, with GET /api/auth/providers answering `providers` (none by default) and
 * every other request answered by `signinResponse`.
 */
function renderSignIn(
  signinResponse: () => Response,
  entry = '/signin',
  providers: ExternalProviders['providers'] = [],
) {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) =>
    url === EXTERNAL_PROVIDERS_URL
      ? new Response(JSON.stringify({ providers }), { headers: { 'content-type': 'application/json' } })
      : signinResponse(),
  );
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, null);
  const router = createMemoryRouter(
    [
      { path: '/signin', Component: SignInPage },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: [entry] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const signinCalls = () => fetchMock.mock.calls.filter(([url]) => url !== EXTERNAL_PROVIDERS_URL);
  const providersLoaded = () =>
    waitFor(() =>
      expect(queryClient.getQueryState(externalProvidersQueryOptions.queryKey)?.status).toBe('success'),
    );
  return { signinCalls, providersLoaded, router };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

const submit = () => fireEvent.click(screen.getByTestId('signin-submit'));

describe('sign-in page', () => {
  it('asks for the handle before sending anything', () => {
    const { signinCalls } = renderSignIn(() => new Response('{}'));
    submit();
    expect(getToasts()[0]).toMatchObject({ title: 'Handle Required', variant: 'destructive' });
    expect(signinCalls()).toEqual([]);
  });

  it('sends the handle without @ and spaces, then goes to /dashboard', async () => {
    const { signinCalls, router } = renderSignIn(
      () =>
        new Response(JSON.stringify({ id: 'u1', handle: 'ana', plan: 'free' }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    fireEvent.change(screen.getByTestId('signin-handle'), { target: { value: ' @Ana ' } });
    fireEvent.change(screen.getByTestId('signin-password'), { target: { value: 'pw 12345' } });
    submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    const [url, init] = signinCalls()[0] ?? [];
    expect(url).toBe('/api/auth/signin');
    expect(JSON.parse(String(init?.body))).toEqual({ handle: 'ana', password: 'pw 12345' });
  });

  it('shows the server message in a Sign In Failed toast', async () => {
    renderSignIn(
      () =>
        new Response('{"message":"Invalid credentials","code":"INVALID_CREDENTIALS"}', {
          status: 401,
        }),
    );
    fireEvent.change(screen.getByTestId('signin-handle'), { target: { value: 'ana' } });
    fireEvent.change(screen.getByTestId('signin-password'), { target: { value: 'wrong-pass' } });
    submit();
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({
        title: 'Sign In Failed',
        description: 'Invalid credentials',
      }),
    );
  });

  it('explains an external sign-in that came back with an error', () => {
    renderSignIn(() => new Response('{}'), '/signin?error=email_in_use');
    expect(screen.getByRole('alert').textContent).toBe(
      'An account with that email already exists. Log in with your handle and password.',
    );
  });

  it('says why a stale bookmark of an unconfigured provider came back', () => {
    renderSignIn(() => new Response('{}'), '/signin?error=google_not_configured');
    expect(screen.getByRole('alert').textContent).toBe(
      'Google sign-in is not available on this site. Log in or sign up with a handle and password.',
    );
  });

  it('shows no external sign-in buttons and no divider when no provider is configured', async () => {
    const { providersLoaded } = renderSignIn(() => new Response('{}'));
    await providersLoaded();
    expect(screen.queryByTestId('external-sign-in')).toBeNull();
    expect(screen.queryByRole('button', { name: /Continue with/ })).toBeNull();
    expect(screen.queryByText(/or continue with your handle/i)).toBeNull();
  });

  it('shows the button of the one configured provider, then the divider', async () => {
    const { providersLoaded } = renderSignIn(() => new Response('{}'), '/signin', [
      { id: 'google', label: 'Google' },
    ]);
    // Nothing in that place until the list has come: no button that might lead nowhere.
    expect(screen.queryByTestId('external-sign-in')).toBeNull();
    await providersLoaded();
    expect(screen.getByTestId('signin-google').textContent).toBe('Continue with Google');
    expect(screen.queryByTestId('signin-replit')).toBeNull();
    expect(screen.getByText(/or continue with your handle/i)).toBeTruthy();
  });

  it('shows no alert without an error', () => {
    renderSignIn(() => new Response('{}'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('toggles the password between hidden and shown', () => {
    renderSignIn(() => new Response('{}'));
    const password = screen.getByTestId('signin-password');
    expect(password.getAttribute('type')).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.getAttribute('type')).toBe('password');
  });
});
