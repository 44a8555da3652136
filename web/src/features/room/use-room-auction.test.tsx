import type { Auction } from '@streamshop/contract/auctions.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { testAuction, withBid } from '../../test/auction-fixture.ts';
import { auctionReducer, initialAuctionState } from './auction-state.ts';
import { parseServerMessage } from './chat-state.ts';
import { type RoomAuction, useAuctionSecondsLeft, useRoomAuction } from './use-room-auction.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The hook with GET current answering `current` (counted), as the viewer `me`. */
function renderAuction(current: () => Auction | null, me: string | null = 'ana') {
  const fetchMock = vi.fn(async (url: string) =>
    url === '/api/streams/crate-digging/auctions/current' ? json({ auction: current() }) : json({}, 404),
  );
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const view = renderHook(
    ({ status }: { status: 'open' | 'reconnecting' }) => {
      const room = useRoomAuction('crate-digging', true, status, me);
      const secondsLeft = useAuctionSecondsLeft(room);
      return { room, secondsLeft };
    },
    { wrapper, initialProps: { status: 'open' } },
  );
  return { view, fetchMock };
}

const bidEvent = (auction: Auction) =>
  ({
    type: 'auction_bid',
    auctionId: auction.id,
    serverNow: auction.serverNow,
    currentBidCents: auction.currentBidCents ?? auction.startingBidCents,
    leader: auction.leader,
    endsAt: auction.endsAt,
    auction,
  }) as const;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('useRoomAuction', () => {
  it('loads the current auction on joining and again after a reconnect', async () => {
    let current: Auction | null = testAuction();
    const { view, fetchMock } = renderAuction(() => current);
    await waitFor(() => expect(view.result.current.room.auction?.id).toBe(current?.id));
    current = withBid(testAuction(), 'ben', 1000);
    view.rerender({ status: 'reconnecting' });
    view.rerender({ status: 'open' });
    await waitFor(() => expect(view.result.current.room.auction?.leader?.handle).toBe('ben'));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('keeps the view with the highest version, whatever order the events come in', async () => {
    const start = testAuction();
    const { view } = renderAuction(() => start);
    await waitFor(() => expect(view.result.current.room.auction).not.toBeNull());
    const first = withBid(start, 'ben', 1000);
    const second = withBid(first, 'cleo', 1100);
    act(() => view.result.current.room.apply(bidEvent(second)));
    act(() => view.result.current.room.apply(bidEvent(first)));
    expect(view.result.current.room.auction?.version).toBe(3);
    expect(view.result.current.room.auction?.leader?.handle).toBe('cleo');
    // An extension older than what is known changes nothing; a newer one moves the end.
    const later = new Date(Date.parse(second.endsAt) + 10_000).toISOString();
    act(() =>
      view.result.current.room.apply({
        type: 'auction_extended',
        auctionId: start.id,
        serverNow: second.serverNow,
        endsAt: later,
        version: 2,
      }),
    );
    expect(view.result.current.room.auction?.endsAt).toBe(second.endsAt);
    act(() =>
      view.result.current.room.apply({
        type: 'auction_extended',
        auctionId: start.id,
        serverNow: second.serverNow,
        endsAt: later,
        version: 4,
      }),
    );
    expect(view.result.current.room.auction?.endsAt).toBe(later);
  });

  it('counts down by the server’s clock, not this browser’s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    // The server's clock is a minute ahead of this browser's; its auction ends 20 s after its now.
    const serverNow = new Date(Date.now() + 60_000).toISOString();
    const { view } = renderAuction(() => testAuction({ serverNow }));
    await waitFor(() => expect(view.result.current.room.auction).not.toBeNull());
    expect(view.result.current.secondsLeft).toBe(20);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    expect(view.result.current.secondsLeft).toBe(15);
  });

  it('tells the viewer they were outbid when the lead goes from them to another bidder', async () => {
    const start = testAuction();
    const { view } = renderAuction(() => start, 'ana');
    await waitFor(() => expect(view.result.current.room.auction).not.toBeNull());
    const mine = withBid(start, 'ana', 1000);
    act(() => view.result.current.room.applyView(mine));
    expect(view.result.current.room.outbid).toBe(false);
    act(() => view.result.current.room.apply(bidEvent(withBid(mine, 'ben', 1100))));
    expect(view.result.current.room.outbid).toBe(true);
    // Leading again clears it.
    act(() => view.result.current.room.apply(bidEvent(withBid(withBid(mine, 'ben', 1100), 'ana', 1200))));
    expect(view.result.current.room.outbid).toBe(false);
  });

  it('does not call a bidder who never led outbid, and a 409 OUTBID marks them at once', async () => {
    const start = testAuction();
    const { view } = renderAuction(() => start, 'ana');
    await waitFor(() => expect(view.result.current.room.auction).not.toBeNull());
    act(() => view.result.current.room.apply(bidEvent(withBid(start, 'ben', 1000))));
    expect(view.result.current.room.outbid).toBe(false);
    act(() => view.result.current.room.markOutbid());
    expect((view.result.current.room satisfies RoomAuction).outbid).toBe(true);
  });
});

describe('auctionReducer', () => {
  it('keeps a view that arrived after GET current was sent when the GET says there is none', () => {
    const auction = testAuction();
    const known = auctionReducer(initialAuctionState, { type: 'view', auction, receivedAt: 2000, me: null });
    expect(auctionReducer(known, { type: 'none', sentAt: 1000 }).auction).not.toBeNull();
    expect(auctionReducer(known, { type: 'none', sentAt: 3000 }).auction).toBeNull();
  });

  it('takes a new auction of the room over the last one’s result', () => {
    const ended = {
      ...testAuction({ serverNow: '2026-11-29T10:00:00.000Z' }),
      status: 'ended' as const,
      version: 9,
    };
    const known = auctionReducer(initialAuctionState, {
      type: 'view',
      auction: ended,
      receivedAt: 1,
      me: null,
    });
    const next = testAuction({
      id: 'a0000000-0000-4000-8000-000000000002',
      serverNow: '2026-11-29T10:01:00.000Z',
    });
    expect(auctionReducer(known, { type: 'view', auction: next, receivedAt: 2, me: null }).auction?.id).toBe(
      next.id,
    );
  });
});

describe('the room socket’s auction frames', () => {
  it('reads each auction event, and drops a malformed one', () => {
    const auction = withBid(testAuction(), 'ben', 1000);
    const event = bidEvent(auction);
    expect(parseServerMessage(JSON.stringify(event))).toEqual(event);
    const extended = {
      type: 'auction_extended',
      auctionId: auction.id,
      serverNow: auction.serverNow,
      endsAt: auction.endsAt,
      version: 3,
    };
    expect(parseServerMessage(JSON.stringify(extended))).toEqual(extended);
    expect(parseServerMessage(JSON.stringify({ ...event, auction: { id: 1 } }))).toBeNull();
    expect(
      parseServerMessage(JSON.stringify({ type: 'auction_extended', auctionId: auction.id })),
    ).toBeNull();
  });
});
