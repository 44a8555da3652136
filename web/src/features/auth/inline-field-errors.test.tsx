import { EXTERNAL_PROVIDERS_URL } from '@streamshop/contract/auth.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { ForgotPasswordPage } from './forgot-password-page.tsx';
import { SignInPage } from './sign-in-page.tsx';
import { SignUpPage } from './sign-up-page.tsx';

/**
 * Issue 27 item 9: a field's problem shows beside it, in words, tied to the input
 * (aria-invalid, aria-describedby), while the spec's toast still shows.
 */

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Renders `Page` at `path`; every request but the providers list gets `answer()`. */
function renderPage(path: string, Page: ComponentType, answer: () => Response = () => json({}, 500)) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => (url === EXTERNAL_PROVIDERS_URL ? json({ providers: [] }) : answer())),
  );
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, null);
  const router = createMemoryRouter(
    [
      { path, Component: Page },
      { path: '/dashboard', element: <p>dashboard</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

const fill = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

/** The message an input's aria-describedby points at, and whether it is marked invalid. */
function messageOf(testId: string): { invalid: boolean; message: string } {
  const input = screen.getByTestId(testId);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const message = ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  return { invalid: input.getAttribute('aria-invalid') === 'true', message };
}

describe('sign-in', () => {
  it('labels the field "Handle or email"', () => {
    renderPage('/signin', SignInPage);
    expect(screen.getByLabelText('Handle or email')).toBe(screen.getByTestId('signin-handle'));
  });

  it('shows "Please enter your handle or email." beside the empty field, focuses it, and keeps the spec toast', async () => {
    renderPage('/signin', SignInPage);
    fireEvent.click(screen.getByTestId('signin-submit'));
    expect(getToasts()[0]).toMatchObject({
      title: 'Handle Required',
      description: 'Please enter your handle to continue.',
    });
    expect(messageOf('signin-handle')).toEqual({
      invalid: true,
      message: 'Please enter your handle or email.',
    });
    expect(messageOf('signin-password').invalid).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('signin-handle')));
    // Typing clears it.
    fill('signin-handle', 'ana');
    expect(messageOf('signin-handle')).toEqual({ invalid: false, message: '' });
  });

  it('shows the password’s problem beside the password', () => {
    renderPage('/signin', SignInPage);
    fill('signin-handle', 'ana@example.com');
    fireEvent.click(screen.getByTestId('signin-submit'));
    expect(getToasts()[0]).toMatchObject({ title: 'Password Required' });
    expect(messageOf('signin-password').message).toBe('Please enter your password to continue.');
  });

  it('puts a server field error beside its field', async () => {
    renderPage('/signin', SignInPage, () =>
      json(
        {
          message: 'Invalid handle: Handle or email is too long',
          code: 'VALIDATION_FAILED',
          fields: { handle: 'Handle or email is too long' },
        },
        400,
      ),
    );
    fill('signin-handle', 'ana');
    fill('signin-password', 'whatever1');
    fireEvent.click(screen.getByTestId('signin-submit'));
    await waitFor(() => expect(messageOf('signin-handle').message).toBe('Handle or email is too long'));
    expect(getToasts()[0]).toMatchObject({ title: 'Sign In Failed' });
  });
});

describe('sign-up', () => {
  it('shows each spec check beside its field', () => {
    renderPage('/signup', SignUpPage);
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect(getToasts()[0]).toMatchObject({ title: 'First Name Required' });
    expect(messageOf('signup-first-name')).toEqual({
      invalid: true,
      message: 'Please enter your first name.',
    });

    fill('signup-first-name', 'Ana');
    fill('signup-last-name', 'Lima');
    fill('signup-handle', 'ana');
    fill('signup-email', 'ana@example');
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect(messageOf('signup-first-name').invalid).toBe(false);
    expect(messageOf('signup-email')).toEqual({
      invalid: true,
      message: 'Please enter a valid email address.',
    });

    fill('signup-email', 'ana@example.com');
    fill('signup-password', 'correct horse');
    fill('signup-confirm-password', 'correct hors');
    fireEvent.click(screen.getByTestId('signup-submit'));
    expect(messageOf('signup-confirm-password').message).toBe('Please make sure both password fields match.');
  });

  it('keeps the handle’s hint and adds the server’s "is already taken" as a sentence', async () => {
    renderPage('/signup', SignUpPage, () =>
      json(
        {
          message: 'That handle is already taken',
          code: 'HANDLE_TAKEN',
          fields: { handle: 'is already taken' },
        },
        409,
      ),
    );
    fill('signup-first-name', 'Ana');
    fill('signup-last-name', 'Lima');
    fill('signup-email', 'ana@example.com');
    fill('signup-handle', 'ana');
    fill('signup-password', 'correct horse');
    fill('signup-confirm-password', 'correct horse');
    fireEvent.click(screen.getByTestId('signup-submit'));
    await waitFor(() => expect(messageOf('signup-handle').invalid).toBe(true));
    expect(messageOf('signup-handle').message).toBe(
      'Handle is already taken Your storefront lives at /s/yourhandle. Letters, numbers and _.',
    );
    expect(getToasts()[0]).toMatchObject({
      title: 'Sign Up Failed',
      description: 'That handle is already taken',
    });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('signup-handle')));
  });
});

describe('forgot password', () => {
  it('shows the email’s problem beside the field and keeps the toasts', () => {
    renderPage('/forgot-password', ForgotPasswordPage);
    fireEvent.click(screen.getByTestId('forgot-submit'));
    expect(getToasts()[0]).toMatchObject({ title: 'Email Required' });
    expect(messageOf('forgot-email')).toEqual({ invalid: true, message: 'Please enter your email address.' });
    fill('forgot-email', 'ana@example');
    fireEvent.click(screen.getByTestId('forgot-submit'));
    expect(messageOf('forgot-email')).toEqual({
      invalid: true,
      message: 'Please enter a valid email address.',
    });
  });
});
