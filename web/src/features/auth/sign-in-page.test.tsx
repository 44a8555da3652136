import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { SignInPage } from './sign-in-page.tsx';

function renderSignIn(signinResponse: () => Response, entry = '/signin') {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => signinResponse());
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
  return { fetchMock, router };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

const submit = () => fireEvent.click(screen.getByTestId('signin-submit'));

describe('sign-in page', () => {
  it('asks for the handle before sending anything', () => {
    const { fetchMock } = renderSignIn(() => new Response('{}'));
    submit();
    expect(getToasts()[0]).toMatchObject({ title: 'Handle Required', variant: 'destructive' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the handle without @ and spaces, then goes to /dashboard', async () => {
    const { fetchMock, router } = renderSignIn(
      () =>
        new Response(JSON.stringify({ id: 'u1', handle: 'ana', plan: 'free' }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    fireEvent.change(screen.getByTestId('signin-handle'), { target: { value: ' @Ana ' } });
    fireEvent.change(screen.getByTestId('signin-password'), { target: { value: 'pw 12345' } });
    submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
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
