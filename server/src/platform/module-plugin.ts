import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { Bus } from './bus.ts';
import type { Mailer } from './mail/mailer.ts';
import type { PaymentProvider } from './payments/provider.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { RoomHub } from './room-hub.ts';
import type { SessionSockets } from './session-sockets.ts';
import type { Storage } from './storage.ts';
import type { StorageRemovals } from './storage-removals.ts';
import type { TokenBuckets } from './token-bucket.ts';

/**
 * What every module is given (ADR 0021): the shared services app.ts builds once, and nothing of
 * another module. A module reaches another only through that module's service.ts or a bus event.
 */
export interface Platform {
  config: Config;
  log: FastifyBaseLogger;
  database: Database;
  db: Db;
  /** Set when REDIS_URL is: rate limits, buckets and the bus share it across instances. */
  redis: Redis | undefined;
  bus: Bus;
  hub: RoomHub;
  storage: Storage;
  storageRemovals: StorageRemovals;
  mailer: Mailer;
  limiter: RateLimiter;
  sessionSockets: SessionSockets;
  payments: PaymentProvider;
  /** Knobs a test or a bench may turn (AppDeps); production leaves them unset. */
  options: ModuleOptions;
}

/** The modules' knobs (every one optional; the defaults are production's). */
export interface ModuleOptions {
  /** Run the job that ends streams at their plan's limit (default true). */
  autoEnd?: boolean;
  /** How long a publisher (browser or encoder) may be gone before its stream ends (default 30 s). */
  publisherGraceMs?: number;
  /** How often the media module looks for ended streams without a replay (default 5 s). */
  replaySweepMs?: number;
  /** Sample each live room's viewers every 5 s for the seller's stats (default true). */
  viewerSampling?: boolean;
  /** Run the payment jobs: expired holds, refunds, local renewals and webhook retries (default true). */
  paymentJobs?: boolean;
  /** Deliver shipped orders by themselves (default true), after this long (default 30 days), checked this often. */
  autoDelivery?: { enabled?: boolean; afterMs?: number; intervalMs?: number };
  /** Let the local provider post its webhooks to this app (default true). */
  localWebhooks?: boolean;
  /** The local provider's payouts of available balances: on by default, once a day, checked every 10 min. */
  localPayouts?: { enabled?: boolean; everyMs?: number; intervalMs?: number };
  /** Chat's per-user message buckets (default: in Redis when REDIS_URL is set, else in memory). */
  chatBuckets?: TokenBuckets;
  /** How often each instance looks for due auctions and unsettled winners (default 1 s). */
  auctionSweepMs?: number;
  /** How often each instance looks for go-live and reminder events to fan out (default 2 s). */
  notifySweepMs?: number;
  /** People per fan-out batch (default 500). */
  fanoutBatch?: number;
  /** How often each instance draws due giveaways (default 1 s). */
  giveawaySweepMs?: number;
  /** How often each instance marks shows not started in time as missed (default 30 s). */
  showSweepMs?: number;
  /** Where the built SPA lives (default web/dist). */
  webDist?: string;
}

/**
 * A module as one Fastify plugin: it registers its routes, starts its jobs, sweeps and listeners,
 * and stops them in its own onClose (which runs before the platform closes: Fastify closes in the
 * reverse order of registration). Not encapsulated, so what it decorates (app.media) is the app's.
 */
export function modulePlugin(
  name: string,
  register: (app: FastifyInstance, platform: Platform) => Promise<void>,
) {
  return fp<Platform>(register, { name: `module-${name}`, fastify: '5.x' });
}
