import type { Db } from '../../db/client.ts';
import { closeDue, endsInMs, runningAuctions } from './repo.ts';

/** A timer fires this long after the end it waits for, so the database's clock has passed it. */
const AFTER_END_MS = 5;
/** Every instance also looks for due auctions this often: one whose instance died still closes. */
export const CLOSE_SWEEP_MS = 1000;

export interface ClosingLog {
  warn(details: object, message: string): void;
}

/**
 * Closes auctions at their end, by the database's clock (ADR 0022). This instance keeps a timer
 * per auction it started or took a bid for, and sweeps for any due auction every second; the close
 * itself is one conditional update, so whichever instance gets to it first closes it, once. A timer
 * that fires early (the clock moved on an extension another instance took) sets itself again.
 */
export class AuctionClosing {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private sweeping: Promise<void> | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly closed: (auctions: Array<{ id: string; room_name: string }>) => Promise<void>,
    private readonly log: ClosingLog,
  ) {}

  async start(sweepMs = CLOSE_SWEEP_MS): Promise<void> {
    for (const auction of await runningAuctions(this.db)) this.closeIn(auction.id, auction.ends_in_ms);
    this.sweepTimer = setInterval(() => void this.sweep(), sweepMs);
    this.sweepTimer.unref();
  }

  /** Closes the auction when `inMs` have passed (or at once when it is due already). */
  closeIn(auctionId: string, inMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(auctionId));
    const timer = setTimeout(() => void this.fire(auctionId), Math.max(0, inMs) + AFTER_END_MS);
    timer.unref();
    this.timers.set(auctionId, timer);
  }

  forget(auctionId: string): void {
    clearTimeout(this.timers.get(auctionId));
    this.timers.delete(auctionId);
  }

  /** Closes every due auction (any instance's); runs one at a time on this instance. */
  sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      try {
        const done = await closeDue(this.db);
        for (const auction of done) this.forget(auction.id);
        if (done.length > 0) await this.closed(done);
      } catch (error) {
        this.log.warn({ err: error }, 'closing due auctions failed');
      }
    })().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await this.sweeping;
  }

  private async fire(auctionId: string): Promise<void> {
    this.timers.delete(auctionId);
    try {
      const done = await closeDue(this.db, auctionId);
      if (done.length > 0) {
        await this.closed(done);
        return;
      }
      // Not due by the database's clock (extended meanwhile), or closed elsewhere.
      const left = await endsInMs(this.db, auctionId);
      if (left !== undefined) this.closeIn(auctionId, left);
    } catch (error) {
      this.log.warn({ err: error, auctionId }, 'closing an auction failed; the sweep tries again');
    }
  }
}
