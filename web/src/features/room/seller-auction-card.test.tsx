import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { testAuction, withBid } from '../../test/auction-fixture.ts';
import { SellerAuctionCard } from './seller-auction-card.tsx';
import type { RoomAuction } from './use-room-auction.ts';

const auction = withBid(testAuction(), 'ana', 1000);
const makeRoom = (shown = auction) =>
  ({
    auction: shown,
    offsetMs: 0,
    outbid: false,
    me: null,
    apply: () => {},
    applyView: () => {},
    markOutbid: () => {},
    dismissOutbid: () => {},
  }) as unknown as RoomAuction;
const room = makeRoom();

function renderCard(canCancel: boolean, shown: RoomAuction = room) {
  render(
    <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
      <SellerAuctionCard room={shown} canCancel={canCancel} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the seller’s auction card', () => {
  it('blocks a bidder after a confirm', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ blocks: [] }), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    renderCard(true);
    fireEvent.click(screen.getByRole('button', { name: 'Block @ana from your auctions' }));
    expect(screen.getByText('Block @ana?')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('auction-block-confirm'));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auction-blocks');
    expect(JSON.parse(String(init.body))).toEqual({ handle: 'ana' });
    await waitFor(() => expect(screen.queryByTestId('auction-block-dialog')).toBeNull());
  });

  it('offers no Block to a moderator', () => {
    renderCard(false);
    expect(screen.queryByTestId('auction-block-bidder')).toBeNull();
    expect(screen.getAllByText('@ana').length).toBeGreaterThan(0);
  });

  it('offers a declined auction to the runner-up', async () => {
    const declined = {
      ...auction,
      status: 'ended' as const,
      result: {
        winner: { handle: 'ana' },
        priceCents: 1000,
        orderId: null,
        payment: 'declined' as const,
        payBy: new Date().toISOString(),
      },
    };
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify(declined), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    renderCard(true, makeRoom(declined));
    expect(screen.getByText(/Sold to @ana for \$10.00 · the card was declined/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Offer to the runner-up' }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe(`/api/auctions/${auction.id}/runner-up`);
  });
});
