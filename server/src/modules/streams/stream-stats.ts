import type { MyStreamStats, StreamStats } from '@streamshop/contract/stream-stats.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { type StreamStatsRow, streamStatsRows } from './repo.ts';
import { MY_STREAMS_LIMIT } from './service.ts';

function toStreamStats(row: StreamStatsRow): StreamStats {
  const slots = Number(row.viewer_slots);
  return {
    peakViewers: Number(row.peak_viewers),
    averageViewers: slots > 0 ? Math.round((Number(row.viewer_sum) / slots) * 10) / 10 : 0,
    chatMessages: Number(row.chat_messages),
    live: { purchases: Number(row.live_purchases), revenueCents: Number(row.live_revenue) },
    replay: { purchases: Number(row.replay_purchases), revenueCents: Number(row.replay_revenue) },
    auctions: {
      count: Number(row.auctions),
      sold: Number(row.auctions_sold),
      bids: Number(row.auction_bids),
      uniqueBidders: Number(row.auction_bidders),
      soldStartCents: Number(row.sold_start_cents),
      soldForCents: Number(row.sold_for_cents),
    },
  };
}

/** One stream's figures, for its owner only: anyone else gets the same 404 as an unknown room. */
export async function getStreamStats(db: Db, ownerId: string, roomName: string): Promise<StreamStats> {
  const [row] = await streamStatsRows(db, { ownerId, roomName }, 1);
  if (!row) throw notFound('Stream not found');
  return toStreamStats(row);
}

/** The figures of the streams GET /api/streams/mine lists, by stream id. */
export async function listStreamStatsOfOwner(db: Db, ownerId: string): Promise<MyStreamStats> {
  const rows = await streamStatsRows(db, { ownerId }, MY_STREAMS_LIMIT);
  return Object.fromEntries(rows.map((row) => [row.stream_id, toStreamStats(row)]));
}
