import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { ForgotPasswordPage } from './forgot-password-page.tsx';

configure({ asyncUtilTimeout: 4000 });

const SENT = 'If an account uses that address, we sent it a link.';

function renderForgot() {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify({ message: SENT }), { headers: { 'content-type': 'application/json' } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  const router = createMemoryRouter([{ path: '/forgot-password', Component: ForgotPasswordPage }], {
    initialEntries: ['/forgot-password'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

const typeEmail = (value: string) =>
  fireEvent.change(screen.getByTestId('forgot-email'), { target: { value } });
const submit = () => fireEvent.click(screen.getByTestId('forgot-submit'));
const openErrors = () => getToasts().filter((toast) => toast.open && toast.variant === 'destructive');

describe('forgot password page', () => {
  it('asks for the email when the field is empty, and calls it invalid only when typed wrong', () => {
    const fetchMock = renderForgot();
    typeEmail('   ');
    submit();
    expect(openErrors()[0]).toMatchObject({
      title: 'Email Required',
      description: 'Please enter your email address.',
    });
    typeEmail('ana@example');
    submit();
    expect(openErrors()[0]).toMatchObject({ title: 'Invalid Email' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('closes the earlier error once the link is sent', async () => {
    renderForgot();
    typeEmail('ana@example');
    submit();
    expect(openErrors()).toHaveLength(1);
    typeEmail('ana@example.com');
    submit();
    expect(await screen.findByText(SENT)).toBeTruthy();
    expect(openErrors()).toEqual([]);
  });
});
