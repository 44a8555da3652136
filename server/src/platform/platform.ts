import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { type Bus, memoryBus, redisBus } from './bus.ts';
import { MailSender } from './mail/mail-sender.ts';
import { outboxMailer } from './mail/mailer.ts';
import { createMailTransport } from './mail/transport.ts';
import type { ModuleOptions, Platform } from './module-plugin.ts';
import { createPaymentProvider } from './payments/create-provider.ts';
import type { PaymentProvider } from './payments/provider.ts';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './rate-limit.ts';
import { RoomHub } from './room-hub.ts';
import { SessionSockets } from './session-sockets.ts';
import { directoryStorage, type Storage, s3Storage } from './storage.ts';
import { StorageRemovals } from './storage-removals.ts';

/** Parts a test (or a bench) gives instead of the ones the config names, and the modules' knobs. */
export interface PlatformDeps extends ModuleOptions {
  /** An open database; when absent the one the config names is opened, and closed with the app. */
  database?: Database;
  redis?: Redis;
  rateLimiter?: RateLimiter;
  /** Where media files are kept (default: S3 when configured, else DATA_DIR/media). */
  storage?: Storage;
  bus?: Bus;
  /** A payment provider other than the one the config names (tests). */
  payments?: PaymentProvider;
  /** How often open sockets' sessions are looked up again (default SESSION_RECHECK_MS). */
  sessionRecheckMs?: number;
  /** How often each instance looks for mail to send (default 1 s). */
  mailIntervalMs?: number;
  /** How often each instance looks for files to remove from storage (default 30 s). */
  storageRemovalIntervalMs?: number;
}

export interface BuiltPlatform {
  platform: Platform;
  mailSender: MailSender;
  /** Closes what the platform started or opened, after every module has closed. */
  close(): Promise<void>;
}

/**
 * The services every module shares, built once per app: the database, Redis, the bus and the
 * room hub, storage and its removal queue, mail, rate limits, the sockets of each session, and the
 * payment provider. The parts given in `deps` are used as they are and left open at close.
 */
export async function buildPlatform(
  config: Config,
  log: FastifyBaseLogger,
  database: Database | undefined,
  deps: PlatformDeps,
): Promise<BuiltPlatform> {
  const ownsDatabase = !database;
  const db = database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  for (const notice of db.notices) log.warn(notice);
  if (ownsDatabase) {
    db.reportLostConnections((error) =>
      log.warn({ err: error }, 'a database connection was lost; the pool opens a new one when asked'),
    );
  }

  const ownsRedis = !deps.redis && Boolean(config.redisUrl);
  // No command waits for a connection that is down: the limits and buckets count in memory meanwhile.
  const redis =
    deps.redis ??
    (config.redisUrl
      ? new Redis(config.redisUrl, { maxRetriesPerRequest: 0, commandTimeout: 1000 })
      : undefined);
  const limiter =
    deps.rateLimiter ?? (redis ? redisRateLimiter(redis, 'streamshop:', { log }) : memoryRateLimiter());
  const storage =
    deps.storage ?? (config.s3 ? s3Storage(config.s3) : directoryStorage(path.join(config.dataDir, 'media')));
  const ownsBus = !deps.bus;
  const bus = deps.bus ?? (config.redisUrl ? redisBus(config.redisUrl, 'streamshop:', { log }) : memoryBus());
  const hub = new RoomHub(bus);

  const mailSender = new MailSender(
    db.db,
    createMailTransport({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      publicUrl: config.publicUrl,
    }),
    log,
    { intervalMs: deps.mailIntervalMs },
  );
  mailSender.start();
  const storageRemovals = new StorageRemovals(db.db, storage, log, {
    intervalMs: deps.storageRemovalIntervalMs,
  });
  storageRemovals.start();
  const sessionSockets = new SessionSockets(
    db.db,
    bus,
    log,
    config.sessionIdleTimeoutMs,
    deps.sessionRecheckMs,
  );
  await sessionSockets.start();
  const payments = deps.payments ?? createPaymentProvider(config, db.db, log);

  const platform: Platform = {
    config,
    log,
    database: db,
    db: db.db,
    redis,
    bus,
    hub,
    storage,
    storageRemovals,
    mailer: outboxMailer(mailSender),
    limiter,
    sessionSockets,
    payments,
    options: deps,
  };
  return {
    platform,
    mailSender,
    async close() {
      await hub.close();
      await sessionSockets.close();
      await mailSender.close();
      await storageRemovals.close();
      if (ownsBus) await bus.close();
      if (ownsRedis) await redis?.quit().catch(() => redis.disconnect());
      if (ownsDatabase) await db.close();
    },
  };
}
