import { z } from 'zod';

/** One minute of a stream, counted from its start (minute 0 is its first minute). */
export const analyticsMinuteSchema = z.object({
  minute: z.number().int().nonnegative(),
  /** The most viewers watching at once in that minute (sampled every 5 s). */
  peakViewers: z.number().int().nonnegative(),
  /** Messages people wrote in that minute (the room's purchase lines are not counted). */
  chatMessages: z.number().int().nonnegative(),
});
export type AnalyticsMinute = z.infer<typeof analyticsMinuteSchema>;

/** A product pinned in the stream, and what it sold from this stream (live and replay). */
export const pinnedProductSalesSchema = z.object({
  productId: z.string(),
  title: z.string(),
  /** How long it was pinned in total, in seconds. */
  pinnedSeconds: z.number().int().nonnegative(),
  purchases: z.number().int().nonnegative(),
  revenueCents: z.number().int().nonnegative(),
});
export type PinnedProductSales = z.infer<typeof pinnedProductSalesSchema>;

/**
 * GET /api/streams/:name/analytics: a Pro seller's advanced analytics of one of their streams
 * (403 PRO_REQUIRED on the free plan, whose sellers get the totals of /api/streams/:name/stats).
 */
export const streamAnalyticsSchema = z.object({
  /** From the start to the end (or now, while live); at most the last ANALYTICS_MAX_MINUTES. */
  minutes: z.array(analyticsMinuteSchema),
  /** Pinned products, best selling first. */
  products: z.array(pinnedProductSalesSchema),
  /** People who watched (live or replay), each counted once. */
  uniqueViewers: z.number().int().nonnegative(),
  /** People who bought from the stream (live or replay), each counted once. */
  buyers: z.number().int().nonnegative(),
  /** buyers / uniqueViewers, from 0 to 1; null before anyone watched. */
  conversion: z.number().min(0).max(1).nullable(),
});
export type StreamAnalytics = z.infer<typeof streamAnalyticsSchema>;

/** The analytics list at most this many minutes (the last ones of a very long stream). */
export const ANALYTICS_MAX_MINUTES = 180;

export const PRO_REQUIRED_MESSAGE =
  'Advanced analytics are part of Pro: viewers and chat per minute, sales per pinned product and conversion.';
