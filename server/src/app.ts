import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { CHAT_BURST, CHAT_REFILL_PER_SEC } from '@streamshop/contract/live.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Config, TrustProxy } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { serializeError } from './db/query-errors.ts';
import { accountRoutes } from './modules/account/routes.ts';
import { oidcRoutes } from './modules/auth/oidc-routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { imageUploadRoutes } from './modules/catalog/image-upload.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { chatReplayRoutes } from './modules/chat/replay-routes.ts';
import { chatRoutes } from './modules/chat/routes.ts';
import { ChatWriter } from './modules/chat/service.ts';
import { startPaymentJobs } from './modules/checkout/payment-jobs.ts';
import { checkoutRoutes, localPaymentRoutes, WEBHOOK_PATH } from './modules/checkout/routes.ts';
import { discRoutes } from './modules/disc/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { dropEncoderEverywhere, startEncoderIngest } from './modules/media/encoder-ingest.ts';
import { ingestRoutes } from './modules/media/ingest-routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { MediaService, PUBLISHER_HEARTBEAT_MS } from './modules/media/service.ts';
import { moderationRoutes } from './modules/moderation/routes.ts';
import { orderRoutes } from './modules/orders/routes.ts';
import { payoutRoutes } from './modules/payouts/routes.ts';
import { sellerRoutes } from './modules/seller/routes.ts';
import { sendSpaIndex } from './modules/seo/index-html.ts';
import { seoRoutes } from './modules/seo/routes.ts';
import { announceOrder } from './modules/shop/purchases.ts';
import { announceStock } from './modules/shop/room-stock.ts';
import { shopRoutes } from './modules/shop/routes.ts';
import { storefrontRoutes } from './modules/storefront/routes.ts';
import { startAutoEnd } from './modules/streams/auto-end.ts';
import { streamRoutes } from './modules/streams/routes.ts';
import { startViewerSampling } from './modules/streams/viewer-samples.ts';
import { type Bus, memoryBus, redisBus } from './platform/bus.ts';
import { drainPlugin } from './platform/drain.ts';
import { errorsPlugin, notFound } from './platform/errors.ts';
import { MailSender } from './platform/mail/mail-sender.ts';
import { type Mailer, outboxMailer } from './platform/mail/mailer.ts';
import { createMailTransport } from './platform/mail/transport.ts';
import { originCheckPlugin } from './platform/origin-check.ts';
import { createPaymentProvider } from './platform/payments/create-provider.ts';
import type { LocalProvider } from './platform/payments/local.ts';
import type { PaymentProvider } from './platform/payments/provider.ts';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './platform/rate-limit.ts';
import { serializeRequest } from './platform/request-log.ts';
import { RoomHub } from './platform/room-hub.ts';
import { SessionSockets } from './platform/session-sockets.ts';
import { sessionsPlugin } from './platform/sessions.ts';
import { socketCapPlugin } from './platform/socket-cap.ts';
import { directoryStorage, type Storage, s3Storage } from './platform/storage.ts';
import { StorageRemovals } from './platform/storage-removals.ts';
import { memoryTokenBuckets, redisTokenBuckets, type TokenBuckets } from './platform/token-bucket.ts';

/** Chat messages per user and room: a burst, then a steady rate (spec constants). */
const CHAT_BUCKET = { burst: CHAT_BURST, perSecond: CHAT_REFILL_PER_SEC };

export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    config: Config;
    hub: RoomHub;
    payments: PaymentProvider;
    media: MediaService;
    mailer: Mailer;
    mailSender: MailSender;
  }
}

export interface AppDeps {
  /** An open database; when absent buildApp opens the one the config names and closes it on close. */
  database?: Database;
  redis?: Redis;
  rateLimiter?: RateLimiter;
  /** Chat's per-user message buckets (default: in Redis when REDIS_URL is set, else in memory). */
  chatBuckets?: TokenBuckets;
  /** Where media files are kept (default: S3 when configured, else DATA_DIR/media). */
  storage?: Storage;
  bus?: Bus;
  /** Run the job that ends streams at their plan's limit (default true). */
  autoEnd?: boolean;
  /** How long a publisher (browser or encoder) may be gone before its stream ends (default 30 s). */
  publisherGraceMs?: number;
  /**
   * How often the media module looks for ended streams without a replay, and for ended streams it
   * still follows (default 5 s).
   */
  replaySweepMs?: number;
  /** Sample each live room's viewers every 5 s for the seller's stats (default true). */
  viewerSampling?: boolean;
  /** Run the payment jobs: expired holds, refunds, local renewals and webhook retries (default true). */
  paymentJobs?: boolean;
  /** Deliver shipped orders by themselves (default true), after this long (default 30 days), checked this often. */
  autoDelivery?: { enabled?: boolean; afterMs?: number; intervalMs?: number };
  /**
   * Let the local provider post its webhooks to this app (default true). False leaves them in its
   * outbox, as if the server died between a payment and its webhook.
   */
  localWebhooks?: boolean;
  /** A payment provider other than the one the config names (tests). */
  payments?: PaymentProvider;
  /** The local provider's payouts of available balances: on by default, once a day, checked every 10 min. */
  localPayouts?: { enabled?: boolean; everyMs?: number; intervalMs?: number };
  /** Where the built SPA lives; tests may point elsewhere. */
  webDist?: string;
  /** How often open sockets' sessions are looked up again (default SESSION_RECHECK_MS). */
  sessionRecheckMs?: number;
  /** How often each instance looks for mail to send (default 1 s). */
  mailIntervalMs?: number;
  /** How often each instance looks for files to remove from storage (default 30 s). */
  storageRemovalIntervalMs?: number;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}

/** http://shop.example:3000 -> ws://shop.example:3000 (https -> wss). */
function webSocketOrigin(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

function contentSecurityPolicy(config: Config) {
  const https = config.publicUrl.startsWith('https:');
  // Stripe Elements loads its script and card iframes from Stripe and talks to its API.
  const stripe = config.stripe
    ? {
        script: ['https://js.stripe.com'],
        frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        connect: ['https://api.stripe.com'],
      }
    : { script: [], frame: [], connect: [] };
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'", ...stripe.script],
      // Radix and the reaction animations set style attributes.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Sellers may give an https image URL for a product.
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      // WebSockets to this site only ('self' covers ws: in CSP 3, but not in every browser yet).
      connectSrc: ["'self'", webSocketOrigin(config.publicUrl), ...stripe.connect],
      frameSrc: ["'self'", ...stripe.frame],
      frameAncestors: ["'self'"],
      formAction: ["'self'"],
      objectSrc: ["'none'"],
      ...(https ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/** A hop count trusts that many proxies from the right of X-Forwarded-For (Fastify's types lack the number form). */
function trustProxyOption(trust: TrustProxy) {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const ownsDatabase = !deps.database;
  const database =
    deps.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir) }));
  const app = Fastify({
    // Every `err` logged goes through serializeError: a failed query's parameters stay out of the
    // log; every request's URL through serializeRequest: mailed links' tokens stay out of it.
    logger: {
      level: config.logLevel,
      serializers: { err: serializeError, req: serializeRequest },
      stream: deps.logStream,
    },
    genReqId: () => randomUUID(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
  });
  for (const notice of database.notices) app.log.warn(notice);
  if (ownsDatabase) {
    database.reportLostConnections((error) =>
      app.log.warn({ err: error }, 'a database connection was lost; the pool opens a new one when asked'),
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
    deps.rateLimiter ??
    (redis ? redisRateLimiter(redis, 'streamshop:', { log: app.log }) : memoryRateLimiter());
  const storage =
    deps.storage ?? (config.s3 ? s3Storage(config.s3) : directoryStorage(path.join(config.dataDir, 'media')));

  const ownsBus = !deps.bus;
  const bus =
    deps.bus ?? (config.redisUrl ? redisBus(config.redisUrl, 'streamshop:', { log: app.log }) : memoryBus());
  const hub = new RoomHub(bus);
  // Before any socket: it takes over the chat messages a crashed server accepted and did not save.
  const chatWriter = await ChatWriter.start(database.db, config.dataDir, app.log);

  // The API speaks JSON only; anything else is answered 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('database', database);
  app.decorate('config', config);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const mailSender = new MailSender(
    database.db,
    createMailTransport({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      publicUrl: config.publicUrl,
    }),
    app.log,
    { intervalMs: deps.mailIntervalMs },
  );
  mailSender.start();
  const mailer = outboxMailer(mailSender);
  const storageRemovals = new StorageRemovals(database.db, storage, app.log, {
    intervalMs: deps.storageRemovalIntervalMs,
  });
  storageRemovals.start();
  app.decorate('mailer', mailer);
  app.decorate('mailSender', mailSender);

  const sessionSockets = new SessionSockets(
    database.db,
    bus,
    app.log,
    config.sessionIdleTimeoutMs,
    deps.sessionRecheckMs,
  );
  await sessionSockets.start();

  await app.register(errorsPlugin);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl.startsWith('https:'),
  });
  await app.register(originCheckPlugin, { publicUrl: config.publicUrl });
  await app.register(sessionsPlugin, {
    db: database.db,
    secret: config.sessionSecret,
    secureCookies: config.publicUrl.startsWith('https:'),
    idleTimeoutMs: config.sessionIdleTimeoutMs,
    onEnd: (idHash) => sessionSockets.ended(idHash),
  });
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 64 * 1024 },
    // Shutdown is the drain's: it refuses upgrades and tells every socket 1012 (service restart).
    preClose: (done) => done(),
  });
  await app.register(drainPlugin);

  await app.register(socketCapPlugin, { limit: config.socketsPerAddress });
  await app.register(healthRoutes, { database, redis, draining: () => app.drain.draining });
  await app.register(authRoutes, {
    db: database.db,
    limiter,
    mailer,
    secret: config.sessionSecret,
    publicUrl: config.publicUrl,
  });
  await app.register(oidcRoutes, { db: database.db, config, limiter });
  await app.register(accountRoutes, {
    db: database.db,
    limiter,
    mailer,
    hub,
    storageRemovals,
    secret: config.sessionSecret,
    publicUrl: config.publicUrl,
    sessionIdleTimeoutMs: config.sessionIdleTimeoutMs,
  });
  await app.register(catalogRoutes, { db: database.db, publicUrl: config.publicUrl });
  await app.register(imageUploadRoutes, { db: database.db, storage, limiter });
  await app.register(sellerRoutes, { db: database.db });
  await app.register(storefrontRoutes, { db: database.db });
  await app.register(seoRoutes, { publicUrl: config.publicUrl });
  await app.register(streamRoutes, {
    db: database.db,
    hub,
    restreamAllowedHosts: config.restreamAllowedHosts,
  });
  await app.register(chatRoutes, {
    db: database.db,
    sessionSockets,
    secret: config.sessionSecret,
    hub,
    publicUrl: config.publicUrl,
    writer: chatWriter,
    limiter:
      deps.chatBuckets ??
      (redis
        ? redisTokenBuckets(redis, 'streamshop:chat:', CHAT_BUCKET, { log: app.log })
        : memoryTokenBuckets(CHAT_BUCKET)),
  });
  await app.register(chatReplayRoutes, { db: database.db, writer: chatWriter });
  await app.register(moderationRoutes, { db: database.db });
  const media = new MediaService(
    database.db,
    bus,
    storage,
    path.join(config.dataDir, 'live'),
    app.log,
    config.restreamAllowedHosts,
  );
  await app.register(mediaRoutes, {
    db: database.db,
    media,
    storage,
    publicUrl: config.publicUrl,
    sessionSockets,
  });
  media.startSweeps(deps.replaySweepMs);
  const encoders = await startEncoderIngest({
    db: database.db,
    bus,
    media,
    log: app.log,
    announce: (roomName, message) => hub.publish(roomName, message),
    port: config.rtmpPort,
    host: config.host,
    connectionsPerAddress: config.rtmpConnectionsPerAddress,
  });
  if (encoders) app.drain.onStopAccepting(() => encoders.stopAccepting());
  await app.register(ingestRoutes, {
    db: database.db,
    rtmpUrl: config.rtmpUrl,
    secret: config.sessionSecret,
    rtmpOn: encoders !== undefined,
    dropEncoder: (roomName) => dropEncoderEverywhere(bus, roomName),
  });
  const stopAutoEnd =
    deps.autoEnd === false
      ? () => {}
      : startAutoEnd(database.db, hub, app.log, {
          publisherGraceMs: deps.publisherGraceMs,
          publisherHeartbeatMs: PUBLISHER_HEARTBEAT_MS,
          onEnded: (roomNames) => media.makeReplays(roomNames),
        });
  const stopViewerSampling =
    deps.viewerSampling === false ? () => {} : startViewerSampling(database.db, hub, app.log);

  const payments = deps.payments ?? createPaymentProvider(config, database.db, app.log);
  await app.register(checkoutRoutes, {
    db: database.db,
    provider: payments,
    onOrder: (orderId) => announceOrder(database.db, hub, orderId),
    mailer,
    publicUrl: config.publicUrl,
    platformFeePercent: config.platformFeePercent,
    secret: config.sessionSecret,
  });
  await app.register(orderRoutes, {
    db: database.db,
    mailer,
    publicUrl: config.publicUrl,
    provider: payments,
    onStockReturned: (productId) => announceStock(database.db, hub, productId),
    autoDelivery: deps.autoDelivery?.enabled,
    autoDeliverAfterMs: deps.autoDelivery?.afterMs,
    autoDeliveryIntervalMs: deps.autoDelivery?.intervalMs,
  });
  await app.register(payoutRoutes, {
    db: database.db,
    provider: payments,
    publicUrl: config.publicUrl,
    localPayouts: deps.localPayouts,
  });
  await app.register(shopRoutes, { db: database.db, hub });
  await app.register(discRoutes, {
    db: database.db,
    limiter,
    payments,
    publicUrl: config.publicUrl,
    mailer,
  });
  if (payments.name === 'local') {
    const local = payments as LocalProvider;
    await app.register(localPaymentRoutes, { provider: local });
    if (deps.localWebhooks !== false) {
      // The same endpoint and signature check a real provider's webhook goes through.
      local.attachWebhook(async (payload, headers) => {
        const response = await app.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload });
        return response.statusCode;
      });
    }
  }
  const stopPaymentJobs =
    deps.paymentJobs === false ? async () => {} : startPaymentJobs(database.db, payments, app.log);

  await registerStatic(app, config, deps.webDist ?? WEB_DIST);

  app.decorate('hub', hub);
  app.decorate('payments', payments);
  app.decorate('media', media);
  app.addHook('onClose', async () => {
    // The sockets are closed: what chat accepted gets its rows now, or at the next start.
    await chatWriter.close(Math.min(5000, config.shutdownGraceMs / 5));
    stopAutoEnd();
    stopViewerSampling();
    await stopPaymentJobs();
    await encoders?.close();
    await media.close();
    await hub.close();
    await sessionSockets.close();
    await mailSender.close();
    await storageRemovals.close();
    if (ownsBus) await bus.close();
    if (ownsRedis) await redis?.quit().catch(() => redis.disconnect());
    if (ownsDatabase) await database.close();
  });
  return app;
}

async function registerStatic(app: FastifyInstance, config: Config, webDist: string) {
  const mediaDir = path.join(config.dataDir, 'media');
  mkdirSync(mediaDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: mediaDir,
    prefix: '/media/',
    decorateReply: false,
    maxAge: '1h',
  });

  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      index: false,
      wildcard: false,
      // The prerendered pages are answered by sendSpaIndex under their own routes, with their head;
      // the .br/.gz copies (web/scripts/compress.mjs) only in place of their originals.
      globIgnore: ['prerendered/**', '**/*.br', '**/*.gz'],
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/media/');
    if (!isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      if (!hasWeb) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The web app is not built yet: run `npm run build`, then restart the server.');
      }
      // The SPA renders every non-API route, including its own 'Page Not Found'.
      return sendSpaIndex(reply, {
        webDist,
        pathname,
        publicUrl: config.publicUrl,
        prerender: config.prerender,
        signedIn: request.user !== null,
        acceptEncoding: request.headers['accept-encoding'],
      });
    }
    throw notFound(`No such endpoint: ${request.method} ${pathname}`);
  });
}
