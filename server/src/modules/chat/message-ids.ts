import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { reserveMessageIds } from './repo.ts';

/** Ids reserved at a time; a new block is asked for in the background when half is used. */
const BLOCK = 100;

/**
 * Message ids, reserved from the database in blocks ahead of need, so accepting a message asks the
 * database for none: `nextval` writes the sequence's WAL and, every 32 values, makes its statement
 * wait for a WAL flush, which is what a busy database is slow at.
 */
export class MessageIds {
  private ids: number[] = [];
  private refilling: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async next(): Promise<number> {
    while (this.ids.length === 0) await this.refill();
    const id = this.ids.shift() as number;
    if (this.ids.length < BLOCK / 2) this.refillLater();
    return id;
  }

  /** Reserves the first block now rather than on the first message. */
  warm(): void {
    this.refillLater();
  }

  private refillLater(): void {
    this.refill().catch((error) => this.log.warn({ err: error }, 'reserving chat message ids failed'));
  }

  private refill(): Promise<void> {
    this.refilling ??= reserveMessageIds(this.db, BLOCK)
      .then((ids) => {
        this.ids.push(...ids);
      })
      .finally(() => {
        this.refilling = undefined;
      });
    return this.refilling;
  }
}
