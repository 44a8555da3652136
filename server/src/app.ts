import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config, TrustProxy } from './config.ts';
import type { Database } from './db/client.ts';
import { accountPlugin } from './modules/account/plugin.ts';
import { auctionsPlugin } from './modules/auctions/plugin.ts';
import { authPlugin } from './modules/auth/plugin.ts';
import { catalogPlugin } from './modules/catalog/plugin.ts';
import { chatPlugin } from './modules/chat/plugin.ts';
import { checkoutPlugin } from './modules/checkout/plugin.ts';
import { discPlugin } from './modules/disc/plugin.ts';
import { followsPlugin } from './modules/follows/plugin.ts';
import { giveawaysPlugin } from './modules/giveaways/plugin.ts';
import { healthPlugin } from './modules/health/plugin.ts';
import { mediaPlugin } from './modules/media/plugin.ts';
import { moderationPlugin } from './modules/moderation/plugin.ts';
import { notificationsPlugin } from './modules/notifications/plugin.ts';
import { ordersPlugin } from './modules/orders/plugin.ts';
import { paymentMethodsPlugin } from './modules/payment-methods/plugin.ts';
import { payoutsPlugin } from './modules/payouts/plugin.ts';
import { sellerPlugin } from './modules/seller/plugin.ts';
import { seoPlugin } from './modules/seo/plugin.ts';
import { shopPlugin } from './modules/shop/plugin.ts';
import { showsPlugin } from './modules/shows/plugin.ts';
import { sitePlugin } from './modules/site/plugin.ts';
import { storefrontPlugin } from './modules/storefront/plugin.ts';
import { streamsPlugin } from './modules/streams/plugin.ts';
import { registerHttpBasics } from './platform/http.ts';
import { type LogStream, loggerOptions } from './platform/logger.ts';
import type { MailSender } from './platform/mail/mail-sender.ts';
import type { Mailer } from './platform/mail/mailer.ts';
import { registerOpenApi } from './platform/openapi.ts';
import type { PaymentProvider } from './platform/payments/provider.ts';
import { buildPlatform, type PlatformDeps } from './platform/platform.ts';
import type { RoomHub } from './platform/room-hub.ts';

/**
 * The modules, each one Fastify plugin (ADR 0021). Adding a module is its folder and one line
 * here. The order is the order their onClose hooks run in reverse; the pages (seo) come last, as
 * their not-found handler answers every path no module has.
 */
const MODULES = [
  healthPlugin,
  authPlugin,
  accountPlugin,
  catalogPlugin,
  sellerPlugin,
  storefrontPlugin,
  streamsPlugin,
  mediaPlugin,
  chatPlugin,
  moderationPlugin,
  checkoutPlugin,
  paymentMethodsPlugin,
  ordersPlugin,
  payoutsPlugin,
  shopPlugin,
  auctionsPlugin,
  followsPlugin,
  showsPlugin,
  notificationsPlugin,
  giveawaysPlugin,
  discPlugin,
  sitePlugin,
  seoPlugin,
];

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    config: Config;
    hub: RoomHub;
    payments: PaymentProvider;
    mailer: Mailer;
    mailSender: MailSender;
  }
}

export interface AppDeps extends PlatformDeps {
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: LogStream;
}

/** A hop count trusts that many proxies from the right of X-Forwarded-For (Fastify's types lack the number form). */
function trustProxyOption(trust: TrustProxy) {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // JSON lines, or pretty-printed on a terminal; redacted either way (platform/logger.ts).
    logger: loggerOptions(config.logLevel, deps.logStream),
    genReqId: () => randomUUID(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: trustProxyOption(config.trustProxy),
  });
  const { platform, mailSender, close } = await buildPlatform(config, app.log, deps.database, deps);
  // Registered first, so it runs last: after every module has stopped its jobs.
  app.addHook('onClose', close);

  // The API speaks JSON only; anything else is answered 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('database', platform.database);
  app.decorate('config', config);
  app.decorate('hub', platform.hub);
  app.decorate('payments', platform.payments);
  app.decorate('mailer', platform.mailer);
  app.decorate('mailSender', mailSender);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await registerHttpBasics(app, platform);
  // Before the modules: its onRoute hook collects their routes into the OpenAPI document.
  await registerOpenApi(app, config);
  for (const module of MODULES) await app.register(module, platform);
  return app;
}
