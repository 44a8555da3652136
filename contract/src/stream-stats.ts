import { z } from 'zod';

/** Completed purchases and their takings, in cents. */
export const streamSalesSchema = z.object({
  purchases: z.number().int().nonnegative(),
  revenueCents: z.number().int().nonnegative(),
});
export type StreamSales = z.infer<typeof streamSalesSchema>;

/** A stream's figures for its seller only; the public streamSchema never carries them. */
export const streamStatsSchema = z.object({
  peakViewers: z.number().int().nonnegative(),
  /** Viewers averaged over the stream's live time (a sample every 5 s), one decimal. */
  averageViewers: z.number().nonnegative(),
  /** Messages people wrote; the room's purchase lines are not counted. */
  chatMessages: z.number().int().nonnegative(),
  /** Bought in the room while it was live. */
  live: streamSalesSchema,
  /** Bought from the replay. */
  replay: streamSalesSchema,
  /** Its live auctions (issue 28): how many, sold, bids, bidders, and what the sold ones started at and fetched. */
  auctions: z.object({
    count: z.number().int().nonnegative(),
    sold: z.number().int().nonnegative(),
    bids: z.number().int().nonnegative(),
    uniqueBidders: z.number().int().nonnegative(),
    soldStartCents: z.number().int().nonnegative(),
    soldForCents: z.number().int().nonnegative(),
  }),
});
export type StreamStats = z.infer<typeof streamStatsSchema>;

/** GET /api/streams/mine/stats: every stream of the caller's, by stream id. */
export const myStreamStatsSchema = z.record(z.string(), streamStatsSchema);
export type MyStreamStats = z.infer<typeof myStreamStatsSchema>;
