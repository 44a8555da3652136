import type { MyStreamStats, StreamStats } from '@streamshop/contract/stream-stats.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.ts';
import { myStreamStatsQueryOptions } from '../../lib/api/dashboard.ts';
import { StreamStatsSummary, streamStatsFigures } from './stream-stats.tsx';

const stats: StreamStats = {
  peakViewers: 1204,
  averageViewers: 312,
  chatMessages: 1,
  live: { purchases: 3, revenueCents: 123456 },
  replay: { purchases: 1, revenueCents: 700 },
  auctions: { count: 0, sold: 0, bids: 0, uniqueBidders: 0, soldStartCents: 0, soldForCents: 0 },
};

function renderSummary(streamId: string, all: MyStreamStats) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(all), { headers: { 'content-type': 'application/json' } })),
  );
  const queryClient = createQueryClient({ onUnauthorized: () => {} });
  queryClient.setQueryData(myStreamStatsQueryOptions.queryKey, all);
  render(
    <QueryClientProvider client={queryClient}>
      <StreamStatsSummary streamId={streamId} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('stream stats', () => {
  it('reads as peak and average viewers, chat messages and sales live and from the replay', () => {
    expect(streamStatsFigures(stats)).toEqual([
      { label: 'Viewers', value: '1,204 peak · 312.0 avg' },
      { label: 'Chat', value: '1 message' },
      { label: 'Sold live', value: '3 sales · $1,234.56' },
      { label: 'Sold from replay', value: '1 sale · $7.00' },
    ]);
  });

  it('adds the auctions when the stream ran any: how many sold, bids, bidders, and what they fetched', () => {
    const auctions = {
      count: 3,
      sold: 2,
      bids: 14,
      uniqueBidders: 5,
      soldStartCents: 2000,
      soldForCents: 3450,
    };
    expect(streamStatsFigures({ ...stats, auctions }).slice(4)).toEqual([
      { label: 'Auctions', value: '3 auctions · 2 sold · 14 bids from 5 bidders' },
      { label: 'Auctions sold', value: '$34.50 (started at $20.00)' },
    ]);
  });

  it('shows the figures of its own stream', () => {
    renderSummary('s1', { s1: stats, s2: { ...stats, chatMessages: 99 } });
    const list = screen.getByTestId('stream-stats');
    expect(within(list).getByText('1 message')).toBeTruthy();
    expect(within(list).getByText('Sold from replay').nextElementSibling?.textContent).toBe('1 sale · $7.00');
  });

  it('shows nothing for a stream the stats do not cover yet', () => {
    renderSummary('new', { s1: stats });
    expect(screen.queryByTestId('stream-stats')).toBeNull();
  });
});
