import { EXTERNAL_PROVIDERS_URL } from '@streamshop/contract/auth.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { SignUpPage } from './sign-up-page.tsx';

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('sign-up page', () => {
  it('closes "Sign Up Failed" when a retry creates the account', async () => {
    const signupAnswers = [
      () => json({ code: 'CONFLICT', message: 'That handle is already taken' }, 409),
      () => json({ id: 'u1', handle: 'ana2', plan: 'free' }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === EXTERNAL_PROVIDERS_URL
          ? json({ providers: [] })
          : (signupAnswers.shift()?.() ?? json({}, 500)),
      ),
    );
    const queryClient = createQueryClient({ onUnauthorized: () => {} });
    queryClient.setQueryData(authUserQueryKey, null);
    const router = createMemoryRouter(
      [
        { path: '/signup', Component: SignUpPage },
        { path: '/dashboard', element: <p>dashboard</p> },
      ],
      { initialEntries: ['/signup'] },
    );
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const fill = (testId: string, value: string) =>
      fireEvent.change(screen.getByTestId(testId), { target: { value } });
    fill('signup-first-name', 'Ana');
    fill('signup-last-name', 'Lima');
    fill('signup-email', 'ana@example.com');
    fill('signup-handle', 'ana');
    fill('signup-password', 'correct horse');
    fill('signup-confirm-password', 'correct horse');
    fireEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({
        title: 'Sign Up Failed',
        description: 'That handle is already taken',
        open: true,
      }),
    );

    fill('signup-handle', 'ana2');
    fireEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(getToasts().filter((toast) => toast.open)).toEqual([]);
  });
});
