import type { User } from '@streamshop/contract/auth.ts';
import {
  ANALYTICS_MAX_MINUTES,
  PRO_REQUIRED_MESSAGE,
  type StreamAnalytics,
} from '@streamshop/contract/stream-analytics.ts';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { analyticsMinuteRows, analyticsStreamRow, pinnedProductRows } from './analytics-repo.ts';

/**
 * A Pro seller's advanced analytics of one of their streams. Anyone else's stream is the same 404
 * as an unknown room; on the free plan the owner gets 403 PRO_REQUIRED (their totals are in
 * GET /api/streams/:name/stats).
 */
export async function getStreamAnalytics(db: Db, owner: User, roomName: string): Promise<StreamAnalytics> {
  const stream = await analyticsStreamRow(db, owner.id, roomName);
  if (!stream) throw notFound('Stream not found');
  if (owner.plan !== 'pro') throw new AppError(403, 'PRO_REQUIRED', PRO_REQUIRED_MESSAGE);
  const [minutes, products] = await Promise.all([
    analyticsMinuteRows(db, stream.id, ANALYTICS_MAX_MINUTES),
    pinnedProductRows(db, stream.id),
  ]);
  return {
    minutes: minutes.map((row) => ({
      minute: row.minute,
      peakViewers: row.peak_viewers,
      chatMessages: row.chat_messages,
    })),
    products: products.map((row) => ({
      productId: row.product_id,
      title: row.title,
      pinnedSeconds: row.pinned_seconds,
      purchases: row.purchases,
      revenueCents: row.revenue_cents,
    })),
    uniqueViewers: stream.unique_viewers,
    buyers: stream.buyers,
    conversion: stream.unique_viewers > 0 ? Math.min(1, stream.buyers / stream.unique_viewers) : null,
  };
}
