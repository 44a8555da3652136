import type { StreamAuction, StreamAuctions } from '@streamshop/contract/auctions.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { testAuction } from '../../test/auction-fixture.ts';
import { chapterOutcome, ReplayAuctions } from './replay-auctions.tsx';

const product = testAuction().product;
const chapter = (overrides: Partial<StreamAuction>): StreamAuction => ({
  id: 'a1',
  product,
  status: 'ended',
  startSec: 75,
  endSec: 100,
  startingBidCents: 500,
  priceCents: 1250,
  winner: { handle: 'ana' },
  bidCount: 6,
  bidders: 2,
  ...overrides,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the replay’s auctions', () => {
  it('says what became of each auction', () => {
    expect(chapterOutcome(chapter({}))).toBe('Sold to @ana for $12.50');
    expect(chapterOutcome(chapter({ winner: null, priceCents: null, bidCount: 0 }))).toBe('No bids');
    expect(chapterOutcome(chapter({ status: 'cancelled', winner: null, priceCents: null }))).toBe(
      'Cancelled',
    );
  });

  it('lists them as chapters, and a click jumps the replay to the auction’s start', async () => {
    const answer: StreamAuctions = {
      auctions: [
        chapter({}),
        chapter({ id: 'a2', startSec: 190, winner: null, priceCents: null, bidCount: 0 }),
      ],
      summary: { auctions: 2, sold: 1, bids: 6, uniqueBidders: 2, soldStartCents: 500, soldForCents: 1250 },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () => new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const video = document.createElement('video');
    render(
      <QueryClientProvider client={createQueryClient({ onUnauthorized: () => {} })}>
        <ReplayAuctions roomName="crate-digging" video={video} />
      </QueryClientProvider>,
    );
    const items = await screen.findAllByTestId('replay-auction');
    expect(items.map((item) => item.textContent)).toEqual([
      `1:15${product.title}Sold to @ana for $12.50 · started at $5.00 · 6 bids`,
      `3:10${product.title}No bids · started at $5.00 · 0 bids`,
    ]);
    fireEvent.click(screen.getByRole('button', { name: `Jump to the auction of ${product.title} at 3:10` }));
    expect(video.currentTime).toBe(190);
  });
});
