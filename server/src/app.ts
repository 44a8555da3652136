import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { CHAT_BURST, CHAT_REFILL_PER_SEC, CloseCode } from '@streamshop/contract/live.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Config, TrustProxy } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { serializeError } from './db/query-errors.ts';
import { oidcRoutes } from './modules/auth/oidc-routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { imageUploadRoutes } from './modules/catalog/image-upload.ts';
import { catalogRoutes } from './modules/catalog/routes.ts';
import { chatReplayRoutes } from './modules/chat/replay-routes.ts';
import { chatRoutes } from './modules/chat/routes.ts';
import { startPaymentJobs } from './modules/checkout/payment-jobs.ts';
import { checkoutRoutes, localPaymentRoutes, WEBHOOK_PATH } from './modules/checkout/routes.ts';
import { discRoutes } from './modules/disc/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { dropEncoderEverywhere, startEncoderIngest } from './modules/media/encoder-ingest.ts';
import { ingestRoutes } from './modules/media/ingest-routes.ts';
import { mediaRoutes } from './modules/media/routes.ts';
import { MediaService } from './modules/media/service.ts';
import { moderationRoutes } from './modules/moderation/routes.ts';
import { sellerRoutes } from './modules/seller/routes.ts';
import { sendSpaIndex } from './modules/seo/index-html.ts';
import { seoRoutes } from './modules/seo/routes.ts';
import { announceOrder } from './modules/shop/purchases.ts';
import { shopRoutes } from './modules/shop/routes.ts';
import { storefrontRoutes } from './modules/storefront/routes.ts';
import { startAutoEnd } from './modules/streams/auto-end.ts';
import { streamRoutes } from './modules/streams/routes.ts';
import { startViewerSampling } from './modules/streams/viewer-samples.ts';
import { type Bus, memoryBus, redisBus } from './platform/bus.ts';
import { errorsPlugin, notFound } from './platform/errors.ts';
import { originCheckPlugin } from './platform/origin-check.ts';
import { createPaymentProvider } from './platform/payments/create-provider.ts';
import type { LocalProvider } from './platform/payments/local.ts';
import type { PaymentProvider } from './platform/payments/provider.ts';
import { memoryRateLimiter, type RateLimiter, redisRateLimiter } from './platform/rate-limit.ts';
import { RoomHub } from './platform/room-hub.ts';
import { SessionSockets } from './platform/session-sockets.ts';
import { sessionsPlugin } from './platform/sessions.ts';
import { socketCapPlugin } from './platform/socket-cap.ts';
import { directoryStorage, type Storage, s3Storage } from './platform/storage.ts';
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
  /** How long an RTMP encoder may be gone before its stream ends (default 30 s). */
  encoderReconnectGraceMs?: number;
  /** How often the media module looks for ended streams whose replay nobody published (default 20 s). */
  orphanSweepMs?: number;
  /** Sample each live room's viewers every 5 s for the seller's stats (default true). */
  viewerSampling?: boolean;
  /** Run the payment jobs: expired holds, refunds, local renewals and webhook retries (default true). */
  paymentJobs?: boolean;
  /**
   * Let the local provider post its webhooks to this app (default true). False leaves them in its
   * outbox, as if the server died between a payment and its webhook.
   */
  localWebhooks?: boolean;
  /** A payment provider other than the one the config names (tests). */
  payments?: PaymentProvider;
  /** Where the built SPA lives; tests may point elsewhere. */
  webDist?: string;
  /** How often open sockets' sessions are looked up again (default SESSION_RECHECK_MS). */
  sessionRecheckMs?: number;
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
  const ownsRedis = !deps.redis && Boolean(config.redisUrl);
  const redis =
    deps.redis ?? (config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined);
  const limiter = deps.rateLimiter ?? (redis ? redisRateLimiter(redis, 'streamshop:') : memoryRateLimiter());
  const storage =
    deps.storage ?? (config.s3 ? s3Storage(config.s3) : directoryStorage(path.join(config.dataDir, 'media')));

  const ownsBus = !deps.bus;
  const bus = deps.bus ?? (config.redisUrl ? redisBus(config.redisUrl, 'streamshop:') : memoryBus());
  const hub = new RoomHub(bus);

  const app = Fastify({
    // Every `err` logged goes through serializeError: a failed query's parameters stay out of the log.
    logger: { level: config.logLevel, serializers: { err: serializeError }, stream: deps.logStream },
    genReqId: () => randomUUID(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
  });
  // The API speaks JSON only; anything else is answered 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('database', database);
  app.decorate('config', config);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

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
    // On shutdown tell every client "service restart" (1012) so it reconnects to another instance.
    preClose(done) {
      for (const socket of app.websocketServer.clients)
        socket.close(CloseCode.serviceRestart, 'Server restarting');
      app.websocketServer.close(() => done());
    },
  });

  await app.register(socketCapPlugin, { limit: config.socketsPerAddress });
  await app.register(healthRoutes, { database, redis });
  await app.register(authRoutes, { db: database.db, limiter });
  await app.register(oidcRoutes, { db: database.db, config, limiter });
  await app.register(catalogRoutes, { db: database.db, publicUrl: config.publicUrl });
  await app.register(imageUploadRoutes, { storage, limiter });
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
    limiter:
      deps.chatBuckets ??
      (redis ? redisTokenBuckets(redis, 'streamshop:chat:', CHAT_BUCKET) : memoryTokenBuckets(CHAT_BUCKET)),
  });
  await app.register(chatReplayRoutes, { db: database.db });
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
  media.startOrphanSweep(deps.orphanSweepMs);
  const encoders = await startEncoderIngest({
    db: database.db,
    bus,
    media,
    log: app.log,
    announce: (roomName, message) => hub.publish(roomName, message),
    port: config.rtmpPort,
    host: config.host,
    reconnectGraceMs: deps.encoderReconnectGraceMs,
  });
  await app.register(ingestRoutes, {
    db: database.db,
    rtmpUrl: config.rtmpUrl,
    dropEncoder: (roomName) => dropEncoderEverywhere(bus, roomName),
  });
  const stopAutoEnd = deps.autoEnd === false ? () => {} : startAutoEnd(database.db, hub, app.log);
  const stopViewerSampling =
    deps.viewerSampling === false ? () => {} : startViewerSampling(database.db, hub, app.log);

  const payments = deps.payments ?? createPaymentProvider(config, database.db);
  await app.register(checkoutRoutes, {
    db: database.db,
    provider: payments,
    onOrder: (orderId) => announceOrder(database.db, hub, orderId),
  });
  await app.register(shopRoutes, { db: database.db, hub });
  await app.register(discRoutes, { db: database.db, limiter, payments, publicUrl: config.publicUrl });
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
    stopAutoEnd();
    stopViewerSampling();
    await stopPaymentJobs();
    await encoders?.close();
    await media.close();
    await hub.close();
    await sessionSockets.close();
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
