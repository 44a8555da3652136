import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { resetToasts } from '../../components/ui/use-toast.ts';
import { CONTACT_RATE_LIMITED_MESSAGE, ContactPage } from './contact-page.tsx';

/** /contact's form against a stubbed POST /api/contact: inline errors, success, the limit. */

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderWith(answer: () => Response) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetch);
  render(
    <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
      <RouterProvider
        router={createMemoryRouter([{ path: '/contact', Component: ContactPage }], {
          initialEntries: ['/contact'],
        })}
      />
    </QueryClientProvider>,
  );
  return fetch;
}

const fill = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
function fillValid() {
  fill('contact-name', 'Ana Lima');
  fill('contact-email', 'ana@example.com');
  fill('contact-message', 'Where is my record?');
}
const fieldError = (testId: string) => {
  const id = screen.getByTestId(testId).getAttribute('aria-describedby') ?? '';
  return id ? document.getElementById(id.split(' ')[0] ?? '')?.textContent : undefined;
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('the contact form', () => {
  it('shows what is missing next to each field, focuses the first, and sends nothing', async () => {
    const fetch = renderWith(() => json({ ok: true }, 202));
    fill('contact-email', 'ana@');
    fireEvent.click(screen.getByTestId('contact-submit'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('contact-name')));
    expect(fieldError('contact-name')).toBe('Name is required');
    expect(fieldError('contact-email')).toBe('Please enter a valid email address.');
    expect(fieldError('contact-message')).toBe('Message is required');
    expect(screen.getByTestId('contact-name').getAttribute('aria-invalid')).toBe('true');
    expect(fieldError('contact-subject')).toBeUndefined();
    expect(fetch).not.toHaveBeenCalled();

    // Typing in a field takes its message away.
    fill('contact-name', 'Ana');
    expect(fieldError('contact-name')).toBeUndefined();
  });

  it('sends the message and says "Message sent"', async () => {
    const fetch = renderWith(() => json({ ok: true }, 202));
    fillValid();
    fill('contact-subject', '  ');
    fireEvent.click(screen.getByTestId('contact-submit'));
    const sent = await screen.findByTestId('contact-sent');
    expect(sent.textContent).toContain('Message sent');
    expect(sent.textContent).toContain('ana@example.com');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/contact');
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'Ana Lima',
      email: 'ana@example.com',
      message: 'Where is my record?',
    });
    // Another message starts from an empty form.
    fireEvent.click(screen.getByTestId('contact-another'));
    expect((screen.getByTestId('contact-name') as HTMLInputElement).value).toBe('');
  });

  it('says to wait when the server answers 429, and keeps what was typed', async () => {
    renderWith(() =>
      json({ message: 'Too many attempts. Please wait and try again.', code: 'RATE_LIMITED' }, 429),
    );
    fillValid();
    fireEvent.click(screen.getByTestId('contact-submit'));
    expect((await screen.findByTestId('contact-notice')).textContent).toBe(CONTACT_RATE_LIMITED_MESSAGE);
    expect((screen.getByTestId('contact-message') as HTMLTextAreaElement).value).toBe('Where is my record?');
    expect(screen.queryByTestId('contact-sent')).toBeNull();
  });

  it("puts the server's field reasons next to the fields", async () => {
    renderWith(() =>
      json(
        {
          message: 'email: Please enter a valid email address.',
          code: 'VALIDATION_FAILED',
          fields: { email: 'Please enter a valid email address.' },
        },
        400,
      ),
    );
    fillValid();
    fireEvent.click(screen.getByTestId('contact-submit'));
    await waitFor(() => expect(fieldError('contact-email')).toBe('Please enter a valid email address.'));
    expect(screen.queryByTestId('contact-notice')).toBeNull();
  });
});
