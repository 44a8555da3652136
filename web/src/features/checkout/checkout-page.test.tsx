import type { User } from '@streamshop/contract/auth.ts';
import type { Product } from '@streamshop/contract/catalog.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { getToasts, resetToasts } from '../../components/ui/use-toast.ts';
import { authUserQueryKey } from '../../lib/api/auth.ts';
import { CheckoutPage } from './checkout-page.tsx';

configure({ asyncUtilTimeout: 4000 });

const ID = '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab';

const buyer = { id: 'u1', handle: 'ana', plan: 'free' } as User;
const product = {
  id: ID,
  title: 'Blue Note LP',
  description: 'First pressing, near mint.',
  priceCents: 2500,
  condition: 'used',
  imageUrl: null,
  stock: 1,
  seller: { handle: 'groovevault' },
} as Product;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Routes = Record<string, () => Response>;

const baseRoutes: Routes = {
  [`GET /api/products/${ID}`]: () => json(product),
  [`DELETE /api/checkout/${ID}`]: () => new Response(null, { status: 204 }),
  [`POST /api/checkout/${ID}`]: () =>
    json({
      clientSecret: 'pi_1_secret_x',
      amountCents: 2500,
      reservedUntil: new Date(Date.now() + 600_000).toISOString(),
    }),
  'GET /api/payments/config': () => json({ provider: 'local', sellersOnboard: false }),
};

function renderCheckout(overrides: Routes = {}, options: { user?: User | null; path?: string } = {}) {
  const routes = { ...baseRoutes, ...overrides };
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${url}`;
    const answer = routes[key];
    return answer ? answer() : json({ message: 'No such endpoint' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(authUserQueryKey, options.user === undefined ? buyer : options.user);
  const router = createMemoryRouter(
    [
      { path: '/checkout/:productId', Component: CheckoutPage },
      { path: '/dashboard', element: <p>dashboard</p> },
      { path: '/', element: <p>home</p> },
    ],
    { initialEntries: [options.path ?? `/checkout/${ID}`] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const calls = (key: string) =>
    fetchMock.mock.calls.filter(([url, init]) => `${init?.method ?? 'GET'} ${url}` === key);
  return { router, calls };
}

async function payWith(number: string) {
  fireEvent.change(await screen.findByTestId('card-number'), { target: { value: number } });
  fireEvent.change(screen.getByTestId('card-expiry'), { target: { value: '12 / 40' } });
  fireEvent.change(screen.getByTestId('card-cvc'), { target: { value: '123' } });
  fireEvent.click(screen.getByTestId('payment-submit'));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

describe('checkout page', () => {
  it('shows the summary and the card form holding nothing, and opens the session on Pay', async () => {
    const { calls } = renderCheckout({
      'POST /api/payments/local/confirm': () => json({ status: 'requires_action' }),
    });
    expect(screen.getByText('Setting up secure payment...')).toBeTruthy();
    await screen.findByTestId('card-number');
    expect(screen.getByTestId('checkout-product-title').textContent).toBe('Blue Note LP');
    expect(screen.getByText('USED')).toBeTruthy();
    expect(screen.getByTestId('checkout-subtotal').textContent).toBe('$25.00');
    expect(screen.getByTestId('checkout-processing-fee').textContent).toBe('$0.00');
    expect(screen.getByTestId('checkout-total').textContent).toBe('$25.00');
    expect(screen.getByTestId('payment-submit').textContent).toBe('Pay $25.00');
    // Looking holds nothing: no session, no reservation.
    fireEvent.change(screen.getByTestId('card-number'), { target: { value: '4242' } });
    expect(calls(`POST /api/checkout/${ID}`)).toHaveLength(0);
    expect(screen.queryByTestId('checkout-reservation')).toBeNull();

    await payWith('4000 0025 0000 3155');
    await screen.findByRole('dialog', { name: 'Confirm this payment' });
    expect(calls(`POST /api/checkout/${ID}`)).toHaveLength(1);
    expect(screen.getByTestId('checkout-reservation').textContent).toMatch(
      /^Reserved for you for (9:5\d|10:00) more\.$/,
    );
  });

  it('lets the unit go when the buyer leaves after Pay, and sends nothing when they only looked', async () => {
    const looked = renderCheckout();
    await screen.findByTestId('card-number');
    cleanup();
    expect(looked.calls(`DELETE /api/checkout/${ID}`)).toHaveLength(0);

    const left = renderCheckout({
      'POST /api/payments/local/confirm': () =>
        json({ status: 'failed', message: 'Your card was declined.' }),
    });
    await payWith('4000 0000 0000 0002');
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Payment Failed' }));
    expect(left.calls(`DELETE /api/checkout/${ID}`)).toHaveLength(0);
    left.router.navigate('/dashboard');
    await waitFor(() => expect(left.calls(`DELETE /api/checkout/${ID}`)).toHaveLength(1));
    const [, init] = left.calls(`DELETE /api/checkout/${ID}`)[0] ?? [];
    expect(init?.keepalive).toBe(true);
  });

  it('does not charge a total the buyer has not seen: a changed total is shown first', async () => {
    const { calls } = renderCheckout({
      [`POST /api/checkout/${ID}`]: () =>
        json({
          clientSecret: 'pi_1_secret_x',
          amountCents: 2900,
          subtotalCents: 2900,
          shippingCents: 0,
          shippingAddress: null,
          reservedUntil: new Date(Date.now() + 600_000).toISOString(),
        }),
      'POST /api/payments/local/confirm': () => json({ status: 'succeeded' }),
    });
    await payWith('4242 4242 4242 4242');
    expect((await screen.findByTestId('checkout-total-changed')).textContent).toBe(
      'The total is now $29.00. Check it and press Pay again.',
    );
    expect(calls('POST /api/payments/local/confirm')).toHaveLength(0);
    expect(screen.getByTestId('payment-submit').textContent).toBe('Pay $29.00');
    fireEvent.click(screen.getByTestId('payment-submit'));
    await waitFor(() => expect(calls('POST /api/payments/local/confirm')).toHaveLength(1));
  });

  it('refuses a malformed id without asking the server', async () => {
    const { calls } = renderCheckout({}, { path: '/checkout/not-a-product' });
    expect(await screen.findByRole('heading', { name: 'Invalid checkout URL' })).toBeTruthy();
    expect(calls(`POST /api/checkout/${ID}`)).toHaveLength(0);
  });

  it('shows Product Not Found with a way back to the marketplace', async () => {
    renderCheckout({ [`GET /api/products/${ID}`]: () => json({ message: 'Product not found' }, 404) });
    expect(await screen.findByRole('heading', { name: 'Product Not Found' })).toBeTruthy();
    expect(
      screen.getByText("The product you're trying to purchase doesn't exist or is no longer available."),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Marketplace' }).getAttribute('href')).toBe('/explore');
  });

  it('says so at Pay when another buyer is paying for the last unit, and reads the stock again', async () => {
    const { calls } = renderCheckout({
      [`POST /api/checkout/${ID}`]: () =>
        json({ message: 'Someone is checking out the last one', code: 'RESERVED' }, 409),
    });
    await payWith('4242 4242 4242 4242');
    expect((await screen.findByTestId('checkout-pay-error')).textContent).toBe(
      'Someone is checking out the last one',
    );
    expect(calls('POST /api/payments/local/confirm')).toHaveLength(0);
    await waitFor(() => expect(calls(`GET /api/products/${ID}`)).toHaveLength(2));
    expect(getToasts()).toHaveLength(0);
  });

  it('shows the order, not a card form, to a buyer who paid for the last one moments ago', async () => {
    const order = {
      id: '0a1b2c3d-0000-4000-8000-000000000001',
      role: 'buyer',
      status: 'paid',
      amountCents: 2500,
      shippingCents: 0,
      item: { productId: ID, title: 'Blue Note LP', imageUrl: null, fulfillment: 'digital' },
      createdAt: new Date().toISOString(),
    };
    const { calls } = renderCheckout({
      [`GET /api/products/${ID}`]: () => json({ ...product, stock: 0 }),
      [`POST /api/checkout/${ID}`]: () => json({ order }),
    });
    expect(await screen.findByTestId('order-placed')).toBeTruthy();
    expect(screen.getByTestId('order-placed-reference').textContent).toBe('#0A1B2C3D');
    expect(screen.getByTestId('order-placed').textContent).toContain('Blue Note LP');
    expect(screen.getByTestId('order-placed').textContent).toContain('$25.00');
    expect(screen.getByRole('link', { name: 'See your orders' }).getAttribute('href')).toBe('/orders');
    expect(screen.queryByTestId('card-number')).toBeNull();
    expect(calls(`POST /api/checkout/${ID}`)).toHaveLength(1);
  });

  it('shows Sold Out when the server answers 409 for a product with none left', async () => {
    renderCheckout({
      [`GET /api/products/${ID}`]: () => json({ ...product, stock: 0 }),
      [`POST /api/checkout/${ID}`]: () =>
        json({ message: 'This product is sold out.', code: 'CONFLICT' }, 409),
    });
    expect(await screen.findByRole('heading', { name: 'Sold Out' })).toBeTruthy();
    expect(screen.queryByTestId('card-number')).toBeNull();
  });

  it('shows the server message when Pay is refused', async () => {
    renderCheckout({
      [`POST /api/checkout/${ID}`]: () => json({ message: 'You cannot buy your own product' }, 400),
    });
    await payWith('4242 4242 4242 4242');
    expect((await screen.findByTestId('checkout-pay-error')).textContent).toBe(
      'You cannot buy your own product',
    );
  });

  it('toasts Payment Setup Failed when the order lookup of a sold-out product fails', async () => {
    renderCheckout({
      [`GET /api/products/${ID}`]: () => json({ ...product, stock: 0 }),
      [`POST /api/checkout/${ID}`]: () => json({ message: 'The payment provider could not be reached' }, 502),
    });
    await screen.findByTestId('checkout-error');
    expect(getToasts()[0]).toMatchObject({
      title: 'Payment Setup Failed',
      description: 'The payment provider could not be reached',
      variant: 'destructive',
    });
  });

  it('sends a signed-out visitor to / with a toast', async () => {
    const { router, calls } = renderCheckout({}, { user: null });
    expect(getToasts()[0]).toMatchObject({ title: 'Authentication Required', variant: 'destructive' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls(`GET /api/products/${ID}`)).toHaveLength(0);
  });

  it('checks the card before sending it', async () => {
    const { calls } = renderCheckout();
    await payWith('4242 4242 4242 4241');
    expect(screen.getByTestId('card-number-error').textContent).toBe('Your card number is invalid.');
    expect(calls('POST /api/payments/local/confirm')).toHaveLength(0);
  });

  it('toasts Payment Failed on a decline and lets the buyer try again', async () => {
    let attempt = 0;
    const { router, calls } = renderCheckout({
      'POST /api/payments/local/confirm': () => {
        attempt += 1;
        return attempt === 1
          ? json({ status: 'failed', message: 'Your card was declined.' })
          : json({ status: 'succeeded' });
      },
    });
    await payWith('4000 0000 0000 0002');
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({
        title: 'Payment Failed',
        description: 'Your card was declined.',
      }),
    );
    await waitFor(() =>
      expect((screen.getByTestId('payment-submit') as HTMLButtonElement).disabled).toBe(false),
    );

    await payWith('4242 4242 4242 4242');
    await waitFor(() =>
      expect(getToasts()[0]).toMatchObject({
        title: 'Payment Successful',
        description: 'Thank you for your purchase! Redirecting to your orders...',
      }),
    );
    expect((screen.getByTestId('payment-submit') as HTMLButtonElement).disabled).toBe(true);
    const bodies = calls('POST /api/payments/local/confirm').map(([, init]) =>
      JSON.parse(String(init?.body)),
    );
    expect(bodies.map((body) => body.clientSecret)).toEqual(['pi_1_secret_x', 'pi_1_secret_x']);
    expect(bodies[1].card).toEqual({ number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('asks for the extra confirmation step and pays once it is completed', async () => {
    const { calls } = renderCheckout({
      'POST /api/payments/local/confirm': () => json({ status: 'requires_action' }),
      'POST /api/payments/local/authenticate': () => json({ status: 'succeeded' }),
    });
    await payWith('4000 0025 0000 3155');
    const dialog = await screen.findByRole('dialog', { name: 'Confirm this payment' });
    expect(dialog).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Complete authentication' }));
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Payment Successful' }));
    const [, init] = calls('POST /api/payments/local/authenticate')[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ clientSecret: 'pi_1_secret_x', approve: true });
  });

  describe('a product that ships', () => {
    const shipped = { ...product, fulfillment: 'ship', shippingCents: 700 } as Product;
    const home = {
      id: 'a1',
      name: 'Ana Buyer',
      line1: '1 Record Lane',
      line2: null,
      city: 'Bristol',
      region: null,
      postalCode: 'BS1 4DJ',
      country: 'GB',
      lastUsedAt: '2026-01-01T00:00:00.000Z',
    };
    const sessionFor = (init?: RequestInit) => {
      const body = JSON.parse(String(init?.body ?? '{}'));
      return json({
        clientSecret: 'pi_2_secret_y',
        amountCents: 3200,
        subtotalCents: 2500,
        shippingCents: 700,
        shippingAddress: body.shippingAddress ?? null,
        reservedUntil: new Date(Date.now() + 600_000).toISOString(),
      });
    };
    const bodies = (calls: ReturnType<typeof renderCheckout>['calls']) =>
      calls(`POST /api/checkout/${ID}`).map(([, init]) => JSON.parse(String(init?.body)));

    it('offers the saved address at once, and sends it with Pay', async () => {
      const { calls } = renderCheckout({
        [`GET /api/products/${ID}`]: () => json(shipped),
        'GET /api/addresses': () => json({ addresses: [home] }),
      });
      vi.mocked(fetch).mockImplementation(async (url, init) => {
        const key = `${init?.method ?? 'GET'} ${url}`;
        if (key === `POST /api/checkout/${ID}`) return sessionFor(init);
        if (key === `GET /api/products/${ID}`) return json(shipped);
        if (key === 'GET /api/addresses') return json({ addresses: [home] });
        return json({ provider: 'local', sellersOnboard: false });
      });
      await screen.findByTestId('card-number');
      expect((screen.getByRole('radio', { name: /Ana Buyer/ }) as HTMLInputElement).checked).toBe(true);
      expect(screen.getByTestId('checkout-subtotal').textContent).toBe('$25.00');
      expect(screen.getByTestId('checkout-shipping').textContent).toBe('$7.00');
      expect(screen.getByTestId('checkout-total').textContent).toBe('$32.00');
      expect(screen.getByTestId('payment-submit').textContent).toBe('Pay $32.00');
      expect(bodies(calls)).toEqual([]);
      await payWith('4242 4242 4242 4242');
      const { id: _id, lastUsedAt: _at, ...address } = home;
      await waitFor(() => expect(bodies(calls)).toEqual([{ shippingAddress: address }]));
    });

    it('asks for an address first when none is saved, with errors tied to their fields', async () => {
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string, init?: RequestInit) => {
          const key = `${init?.method ?? 'GET'} ${url}`;
          if (key === `POST /api/checkout/${ID}`) return sessionFor(init);
          if (key === `GET /api/products/${ID}`) return json(shipped);
          if (key === 'GET /api/addresses') return json({ addresses: [] });
          return json({ provider: 'local', sellersOnboard: false });
        }),
      );
      const queryClient = createQueryClient({ onUnauthorized: () => {} });
      queryClient.setQueryData(authUserQueryKey, buyer);
      const router = createMemoryRouter([{ path: '/checkout/:productId', Component: CheckoutPage }], {
        initialEntries: [`/checkout/${ID}`],
      });
      render(
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>,
      );
      await screen.findByTestId('address-form');
      // Before an address: the product's own prices, and no card form.
      expect(screen.getByTestId('checkout-shipping').textContent).toBe('$7.00');
      expect(screen.getByTestId('checkout-total').textContent).toBe('$32.00');
      expect(screen.queryByTestId('card-number')).toBeNull();

      fireEvent.change(screen.getByLabelText('Full name'), { target: { value: 'Ana Buyer' } });
      fireEvent.change(screen.getByLabelText('Country'), { target: { value: '' } });
      fireEvent.click(screen.getByTestId('address-submit'));
      const line1 = screen.getByLabelText('Address');
      expect(line1.getAttribute('aria-invalid')).toBe('true');
      const describedBy = line1.getAttribute('aria-describedby') ?? '';
      expect(document.getElementById(describedBy)?.textContent).toBe('Address is required');
      expect(screen.getByLabelText('Country').getAttribute('aria-invalid')).toBe('true');

      fireEvent.change(line1, { target: { value: '1 Record Lane' } });
      fireEvent.change(screen.getByLabelText('City'), { target: { value: 'Bristol' } });
      fireEvent.change(screen.getByLabelText('Postal code'), { target: { value: 'BS1 4DJ' } });
      fireEvent.change(screen.getByLabelText('Country'), { target: { value: 'GB' } });
      fireEvent.click(screen.getByTestId('address-submit'));
      await screen.findByTestId('card-number');
      expect(screen.getByTestId('payment-submit').textContent).toBe('Pay $32.00');
      expect((screen.getByRole('radio', { name: /Ana Buyer/ }) as HTMLInputElement).checked).toBe(true);
    });
  });
});
