import { CARRIER_NAMES } from '@streamshop/contract/carriers.ts';
import type { OrderDetail } from '@streamshop/contract/orders.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { resetToasts } from '../../components/ui/use-toast.ts';
import { ShipDialog } from './ship-dialog.tsx';

configure({ asyncUtilTimeout: 4000 });

const order: OrderDetail = {
  id: '0a1b2c3d-0000-4000-8000-000000000009',
  role: 'seller',
  status: 'paid',
  amountCents: 5000,
  shippingCents: 500,
  item: { productId: 'p1', title: 'Blue Note LP', imageUrl: null, fulfillment: 'ship' },
  buyerHandle: 'ana',
  sellerHandle: 'groovevault',
  shippingAddress: { name: 'Ana', line1: '1 Record Lane', city: 'Bristol', postalCode: 'BS1', country: 'GB' },
  carrier: null,
  trackingNumber: null,
  trackingUrl: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  shippedAt: null,
  deliveredAt: null,
  cancelledAt: null,
  refundedAt: null,
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderShip(answer: () => Response = () => json(order)) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answer());
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
      <ShipDialog order={order} onOpenChange={() => {}} />
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetToasts();
});

/** The message an input's aria-describedby points at, and whether it is marked invalid. */
function messageOf(testId: string): { invalid: boolean; message: string } {
  const input = screen.getByTestId(testId);
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const message = ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
  return { invalid: input.getAttribute('aria-invalid') === 'true', message };
}

/** Picks the carrier through the form's native select (what Radix mirrors the list into). */
function chooseCarrier(code: string) {
  const select = screen.getByTestId('ship-dialog').querySelector('select');
  if (!select) throw new Error('no native select for the carrier');
  fireEvent.change(select, { target: { value: code } });
}

describe('ship dialog', () => {
  it('says what is wrong beside each field, in words, without sending anything', async () => {
    const fetchMock = renderShip();
    fireEvent.change(screen.getByTestId('ship-tracking'), { target: { value: '1Z9' } });
    fireEvent.click(screen.getByTestId('ship-submit'));
    expect(messageOf('ship-carrier')).toEqual({ invalid: true, message: 'Carrier is required' });
    expect(messageOf('ship-tracking')).toEqual({
      invalid: true,
      message: 'Tracking number must be at least 4 characters',
    });
    expect(screen.getByTestId('ship-dialog').textContent).not.toMatch(/trackingNumber/);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('ship-carrier')));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('offers the carriers by name', () => {
    renderShip();
    const options = [...document.querySelectorAll('select option')].map((option) => option.textContent);
    expect(options).toEqual(expect.arrayContaining(Object.values(CARRIER_NAMES)));
  });

  it('sends the chosen carrier’s code and puts a server field error beside its field', async () => {
    const fetchMock = renderShip(() =>
      json(
        {
          message: 'Invalid trackingNumber: trackingNumber is at least 4 characters',
          code: 'VALIDATION_FAILED',
          fields: { trackingNumber: 'trackingNumber is at least 4 characters' },
        },
        400,
      ),
    );
    chooseCarrier('royal_mail');
    fireEvent.change(screen.getByTestId('ship-tracking'), { target: { value: 'RM12345GB' } });
    fireEvent.click(screen.getByTestId('ship-submit'));
    await waitFor(() =>
      expect(messageOf('ship-tracking').message).toBe('Tracking number is at least 4 characters'),
    );
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/api/orders/${order.id}/ship`);
    expect(JSON.parse(String(init?.body))).toEqual({ carrier: 'royal_mail', trackingNumber: 'RM12345GB' });
  });
});
