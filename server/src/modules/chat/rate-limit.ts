import { CHAT_BURST, CHAT_REFILL_PER_SEC } from '@streamshop/contract/live.ts';

/** Token bucket per user and room: a burst of CHAT_BURST, refilled at CHAT_REFILL_PER_SEC. */
export class ChatRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string): boolean {
    const t = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: CHAT_BURST, at: t };
    bucket.tokens = Math.min(CHAT_BURST, bucket.tokens + ((t - bucket.at) / 1000) * CHAT_REFILL_PER_SEC);
    bucket.at = t;
    if (this.buckets.size > 50_000) this.sweep(t);
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  private sweep(t: number) {
    for (const [key, bucket] of this.buckets) {
      if (t - bucket.at > (CHAT_BURST / CHAT_REFILL_PER_SEC) * 1000) this.buckets.delete(key);
    }
  }
}
