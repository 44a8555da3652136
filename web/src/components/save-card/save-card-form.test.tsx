import type { PaymentMethod } from '@streamshop/contract/payment-methods.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SaveCardForm } from './save-card-form.tsx';

configure({ asyncUtilTimeout: 4000 });

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const visa: PaymentMethod = {
  id: '0a1b2c3d-0000-4000-8000-0000000000c1',
  brand: 'visa',
  last4: '4242',
  expMonth: 12,
  expYear: 2040,
  isDefault: true,
  createdAt: '2026-11-20T10:00:00.000Z',
};

type Route = (body: unknown) => Response;

/** The form against a server answering `routes` (by `METHOD /path`); answers the calls it got. */
function renderForm(routes: Record<string, Route>) {
  const calls: { key: string; body: unknown }[] = [];
  const all: Record<string, Route> = {
    'GET /api/payments/config': () => json({ provider: 'local', sellersOnboard: false }),
    'POST /api/payment-methods/setup': () => json({ clientSecret: 'lseti_1_secret_x', setupRef: 'lseti_1' }),
    'POST /api/payments/local/setups/confirm': () => json({ status: 'succeeded' }),
    'POST /api/payment-methods': () => json({ paymentMethod: visa }, 201),
    ...routes,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ key, body });
      const answer = all[key];
      return answer ? answer(body) : json({ message: 'No such endpoint' }, 404);
    }),
  );
  const onSaved = vi.fn();
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })}
    >
      <SaveCardForm onSaved={onSaved} />
    </QueryClientProvider>,
  );
  return { calls, onSaved };
}

async function enterCard(number: string) {
  fireEvent.change(await screen.findByTestId('card-number'), { target: { value: number } });
  fireEvent.change(screen.getByTestId('card-expiry'), { target: { value: '1240' } });
  fireEvent.change(screen.getByTestId('card-cvc'), { target: { value: '123' } });
  fireEvent.click(screen.getByTestId('payment-submit'));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SaveCardForm', () => {
  it('opens a setup, confirms the card with it, saves it and hands the saved card over', async () => {
    const { calls, onSaved } = renderForm({});
    expect((await screen.findByTestId('payment-submit')).textContent).toContain('Save card');
    await enterCard('4242 4242 4242 4242');
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(visa));
    expect(calls.filter((c) => c.key !== 'GET /api/payments/config')).toEqual([
      { key: 'POST /api/payment-methods/setup', body: undefined },
      {
        key: 'POST /api/payments/local/setups/confirm',
        body: {
          clientSecret: 'lseti_1_secret_x',
          card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
        },
      },
      { key: 'POST /api/payment-methods', body: { setupRef: 'lseti_1' } },
    ]);
    expect(screen.getByTestId('payment-submit').textContent).toContain('Card saved');
  });

  it("shows the network's refusal in words, and takes another card with the same setup", async () => {
    let declines = 1;
    const { calls, onSaved } = renderForm({
      'POST /api/payments/local/setups/confirm': () =>
        declines-- > 0
          ? json({ status: 'failed', message: 'Your card was declined.' })
          : json({ status: 'succeeded' }),
    });
    await enterCard('4000 0000 0000 0002');
    expect((await screen.findByRole('alert')).textContent).toContain('Your card was declined.');
    expect(onSaved).not.toHaveBeenCalled();
    await enterCard('4242 4242 4242 4242');
    await waitFor(() => expect(onSaved).toHaveBeenCalledOnce());
    expect(calls.filter((c) => c.key === 'POST /api/payment-methods/setup')).toHaveLength(1);
  });

  it('says why the form cannot open (too many cards), with a way to try again', async () => {
    renderForm({
      'POST /api/payment-methods/setup': () =>
        json(
          { message: 'You can keep at most 5 cards. Remove one before adding another.', code: 'CONFLICT' },
          409,
        ),
    });
    expect((await screen.findByRole('alert')).textContent).toContain('You can keep at most 5 cards.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.queryByTestId('card-number')).toBeNull();
  });

  it('says so when the confirmed card could not be saved, and saves it on a retry', async () => {
    let failures = 1;
    const { onSaved } = renderForm({
      'POST /api/payment-methods': () =>
        failures-- > 0
          ? json(
              { message: 'The payment provider could not be reached: timeout', code: 'SERVICE_UNAVAILABLE' },
              502,
            )
          : json({ paymentMethod: visa }, 201),
    });
    await enterCard('4242 4242 4242 4242');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The payment provider could not be reached',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(visa));
  });
});
