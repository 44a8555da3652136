import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import type { Storage } from './storage.ts';

/**
 * Files that must leave storage whatever storage says at the moment (a deleted account's video
 * and images; ADR 0020): queued in the transaction that decides it, removed by a worker on every
 * instance, retried with backoff until storage answers. Removing is idempotent, so a claim is a
 * plain lease without renewal: a crashed or slow worker's rows are taken again after it.
 */

const BATCH = 20;
/** A claimed removal is another worker's to take again after this long. */
const CLAIM_SEC = 60;
/** 10 s, 40 s, 90 s … after the nth failed attempt, at most an hour. */
const retryDelaySec = (attempts: number) => Math.min(3600, 10 * attempts * attempts);

/** Queues storage keys, or folders ending in "/", for removal; a key queued twice is one row. */
export async function queueStorageRemovals(tx: Tx, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    await tx.execute(sql`insert into storage_removals (key) values (${key}) on conflict (key) do nothing`);
  }
}

async function claimDue(db: Db): Promise<Array<{ key: string; attempts: number }>> {
  const claimed = await db.execute<{ key: string; attempts: number }>(sql`
    update storage_removals
    set next_attempt_at = now() + make_interval(secs => ${CLAIM_SEC}), attempts = attempts + 1
    where key in (
      select key from storage_removals where next_attempt_at <= now()
      order by next_attempt_at limit ${BATCH}
      for update skip locked)
    returning key, attempts`);
  return claimed.rows;
}

/** Removes the key, or everything below a folder key. */
async function remove(storage: Storage, key: string): Promise<void> {
  if (!key.endsWith('/')) return storage.delete(key);
  await storage.deleteMany(await storage.list(key));
}

export interface StorageRemovalsOptions {
  /** How often due removals are looked for (default 30 s). */
  intervalMs?: number;
}

/** The worker: at every interval, and at once when `kick` says something was queued here. */
export class StorageRemovals {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly log: FastifyBaseLogger,
    private readonly options: StorageRemovalsOptions = {},
  ) {}

  start(): void {
    this.schedule();
  }

  /** Something was queued: remove it now rather than at the next tick. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.removeDue()
      .then(() => {})
      .catch((error: unknown) => void this.log.warn({ err: error }, 'looking for files to remove failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Removes what is due now; answers how many keys went (tests). */
  async removeDue(): Promise<number> {
    let removed = 0;
    for (;;) {
      const claimed = await claimDue(this.db);
      for (const { key, attempts } of claimed) {
        if (this.stopped) return removed;
        try {
          await remove(this.storage, key);
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          this.log.warn({ key, attempts, reason }, 'removing files failed; will retry');
          await this.db
            .execute(sql`
              update storage_removals set last_error = ${reason.slice(0, 500)},
                next_attempt_at = now() + make_interval(secs => ${retryDelaySec(attempts)})
              where key = ${key}`)
            .catch(() => {});
          continue;
        }
        await this.db.execute(sql`delete from storage_removals where key = ${key}`);
        // What an operator with a CDN in front purges (docs/operations.md).
        this.log.info({ key }, 'storage removal done');
        removed++;
      }
      if (claimed.length < BATCH) return removed;
    }
  }

  /** Stops the timer and waits for a run in progress. */
  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.kick();
      this.schedule();
    }, this.options.intervalMs ?? 30_000);
    this.timer.unref();
  }
}
