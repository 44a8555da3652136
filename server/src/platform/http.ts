import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { drainPlugin } from './drain.ts';
import { errorsPlugin } from './errors.ts';
import type { Platform } from './module-plugin.ts';
import { originCheckPlugin } from './origin-check.ts';
import { sessionsPlugin } from './sessions.ts';
import { socketCapPlugin } from './socket-cap.ts';

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

/**
 * What every request goes through before a module's route: the error answers, cookies, security
 * headers (CSP), the origin check, the session, WebSockets, the drain and the socket cap.
 */
export async function registerHttpBasics(app: FastifyInstance, { config, db, sessionSockets }: Platform) {
  await app.register(errorsPlugin);
  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl.startsWith('https:'),
  });
  await app.register(originCheckPlugin, { publicUrl: config.publicUrl });
  await app.register(sessionsPlugin, {
    db,
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
}
