import { AUCTION_MESSAGES } from '@streamshop/contract/auctions.ts';
import type { RoomProduct } from '@streamshop/contract/shop.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { testAuction } from '../../test/auction-fixture.ts';
import { AuctionDialog } from './auction-dialog.tsx';
import { auctionFieldErrors, auctionFormToBody, defaultAuctionValues } from './auction-form.ts';

configure({ asyncUtilTimeout: 4000 });

const PRODUCT_ID = '6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab';
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the Start auction form', () => {
  it('sends the defaults as the server’s body: cents, 20 seconds, 10-second extensions', () => {
    expect(auctionFormToBody({ ...defaultAuctionValues(), startingBid: '12.50' }, PRODUCT_ID)).toEqual({
      ok: true,
      body: {
        productId: PRODUCT_ID,
        startingBidCents: 1250,
        durationSec: 20,
        suddenDeath: false,
        extendSec: 10,
      },
    });
  });

  it('says in words what is wrong with each field', () => {
    const checked = auctionFormToBody(
      { startingBid: '', duration: '2', suddenDeath: false, extend: '90' },
      PRODUCT_ID,
    );
    expect(checked).toEqual({
      ok: false,
      errors: {
        startingBid: 'The starting bid must be an amount in dollars and cents',
        duration: 'The duration must be at least 5',
        extend: 'The extension must be at most 60',
      },
    });
    const tooBig = auctionFormToBody({ ...defaultAuctionValues(), startingBid: '100000.01' }, PRODUCT_ID);
    expect(tooBig.ok ? null : tooBig.errors.startingBid).toBe('The starting bid must be at most $100,000.00');
    const fraction = auctionFormToBody({ ...defaultAuctionValues(), startingBid: '1.005' }, PRODUCT_ID);
    expect(fraction.ok).toBe(false);
  });

  it('ignores the extension in sudden death, which never extends', () => {
    const checked = auctionFormToBody(
      { ...defaultAuctionValues(), suddenDeath: true, extend: '' },
      PRODUCT_ID,
    );
    expect(checked.ok && checked.body.suddenDeath).toBe(true);
  });

  it('puts the server’s field errors on the form’s fields', () => {
    expect(auctionFieldErrors({ durationSec: 'durationSec must be at most 300', other: 'x' })).toEqual({
      duration: 'The duration must be at most 300',
    });
  });
});

describe('the Start auction dialog', () => {
  const product: RoomProduct = {
    id: PRODUCT_ID,
    title: 'Blue Note LP',
    imageUrl: null,
    priceCents: 2500,
    stock: 1,
    condition: 'used',
    fulfillment: 'digital',
    shippingCents: 0,
  };

  function renderDialog(answer: () => Response) {
    const fetchMock = vi.fn(async () => answer());
    vi.stubGlobal('fetch', fetchMock);
    const onStarted = vi.fn();
    render(
      <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
        <AuctionDialog roomName="crate-digging" product={product} onStarted={onStarted} onClose={() => {}} />
      </QueryClientProvider>,
    );
    return { fetchMock, onStarted };
  }

  it('does not send a form with errors, and shows them by their fields', async () => {
    const { fetchMock } = renderDialog(() => json(testAuction(), 201));
    fireEvent.change(screen.getByLabelText('Duration (seconds)'), { target: { value: '400' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start auction' }));
    expect((await screen.findByTestId('auction-duration-error')).textContent).toBe(
      'The duration must be at most 300',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal in its words', async () => {
    const { fetchMock, onStarted } = renderDialog(() =>
      json({ code: 'CONFLICT', message: AUCTION_MESSAGES.running }, 409),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Start auction' }));
    expect((await screen.findByTestId('auction-start-error')).textContent).toBe(AUCTION_MESSAGES.running);
    expect(onStarted).not.toHaveBeenCalled();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/streams/crate-digging/auctions');
    expect(JSON.parse(String(init.body))).toMatchObject({ startingBidCents: 100, durationSec: 20 });
  });

  it('hands the started auction on', async () => {
    const { onStarted } = renderDialog(() => json(testAuction(), 201));
    fireEvent.click(screen.getByLabelText(/Sudden death/));
    expect((screen.getByLabelText('Extension (seconds)') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Start auction' }));
    await waitFor(() => expect(onStarted).toHaveBeenCalled());
  });
});
