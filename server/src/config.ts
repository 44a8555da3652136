import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { RTMP_CONNECTIONS_PER_ADDRESS } from './modules/media/ingest/rtmp/server.ts';
import { SOCKETS_PER_ADDRESS } from './platform/socket-cap.ts';
import type { S3Settings } from './platform/storage.ts';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalText = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());
/** A link the web shows (an operator's other site): http(s) only, so never a javascript: URL. */
const optionalLink = z.preprocess(
  emptyAsUndefined,
  z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
);

/** Every environment variable the server reads, validated once. Nothing else reads process.env. */
const envSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyAsUndefined,
    z.enum(['development', 'production', 'test']).default('development'),
  ),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  SESSION_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  PUBLIC_URL: optionalUrl,
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  BODY_LIMIT_BYTES: z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().default(1_048_576)),
  SEED_DEMO: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('true')),
  DEMO_LIVE: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('true')),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.string().default('false').transform(parseTrustProxy)),
  SHUTDOWN_GRACE_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).default(10_000)),
  SHUTDOWN_READINESS_DELAY_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).default(0)),
  PRERENDER: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('true')),
  GOOGLE_ISSUER: optionalUrl,
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  REPLIT_ISSUER: optionalUrl,
  REPLIT_CLIENT_ID: optionalText,
  REPLIT_CLIENT_SECRET: optionalText,
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_PUBLISHABLE_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_CONNECT_WEBHOOK_SECRET: optionalText,
  ALLOW_TEST_PAYMENTS: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')),
  RESTREAM_ALLOWED_HOSTS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('')
      .transform((value) => splitList(value)),
  ),
  SOCKETS_PER_ADDRESS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().positive().default(SOCKETS_PER_ADDRESS),
  ),
  S3_BUCKET: optionalText,
  S3_REGION: z.preprocess(emptyAsUndefined, z.string().default('us-east-1')),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  MEDIA_DIR_SHARED: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')),
  RTMP_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(1935)),
  RTMP_CONNECTIONS_PER_ADDRESS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().positive().max(100).default(RTMP_CONNECTIONS_PER_ADDRESS),
  ),
  RTMP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^rtmps?:\/\/[^/\s]+(\/[^\s]*)?$/, 'must be an rtmp:// or rtmps:// URL')
      .optional(),
  ),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        /^smtps?:\/\/[^\s]+$/,
        'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example:587',
      )
      .optional(),
  ),
  MAIL_FROM: optionalText,
  CONTACT_EMAIL: z.preprocess(emptyAsUndefined, z.email('must be an email address').optional()),
  DROP_MODE_URL: optionalLink,
  STREAM_DISC_URL: optionalLink,
  STREAMSHOP_LIVE_URL: optionalLink,
  NEWSLETTER_FORM_URL: optionalLink,
  PRESS_KIT_URL: optionalLink,
  PLATFORM_FEE_PERCENT: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(100).default(0)),
  SESSION_IDLE_TIMEOUT_HOURS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().positive().max(720).default(168),
  ),
});

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** An address or CIDR range: 10.0.0.1, 10.0.0.0/8, ::1, fd00::/8. */
function isAddressOrRange(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: 'false', a hop count (how many proxies in front of the server append to
 * X-Forwarded-For), or the proxies' addresses/CIDRs. Either way the client address is read from the
 * right of X-Forwarded-For, so a client cannot choose it by adding entries on the left. 'true' means
 * one hop.
 */
function parseTrustProxy(value: string, context: z.RefinementCtx): TrustProxy {
  const text = value.trim();
  if (text === 'false' || text === '0') return false;
  if (text === 'true') return 1;
  if (/^\d+$/.test(text)) return Number(text);
  const ranges = splitList(text);
  const bad = ranges.find((range) => !isAddressOrRange(range));
  if (ranges.length === 0 || bad !== undefined) {
    context.addIssue({
      code: 'custom',
      message: `must be false, a hop count (e.g. 1) or the proxies' addresses/CIDRs (e.g. 10.0.0.0/8,127.0.0.1)${bad ? `; not an address: ${bad}` : ''}`,
    });
    return z.NEVER;
  }
  return ranges;
}

/** false, how many proxies to trust from the right, or the trusted proxies' addresses/CIDRs. */
export type TrustProxy = false | number | string[];

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /**
   * The signing secret of the Connect webhook endpoint (sellers' `account.updated`), which Stripe
   * gives its own secret. Optional: without it a seller's state is read from Stripe on each look.
   */
  connectWebhookSecret?: string | undefined;
}

/** Every environment variable the server reads (a launcher clears them so a shell's own do not leak in). */
export const CONFIG_ENV_KEYS = Object.keys(envSchema.shape);

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL URL; undefined means embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  sessionSecret: string;
  /** Origin the browser sees, e.g. http://localhost:3000. */
  publicUrl: string;
  logLevel: string;
  bodyLimitBytes: number;
  seedDemo: boolean;
  /** With the demo data: an always-live demo room looping a clip (one instance loops it at a time). */
  demoLive: boolean;
  /**
   * Behind a reverse proxy: take the client address (per-IP limits) from X-Forwarded-For, read from
   * the right past this many hops or past these proxy addresses; false ignores the header.
   */
  trustProxy: TrustProxy;
  /** From SIGTERM to exit: the drain, then jobs, recordings, Redis and the database (platform/drain.ts). */
  shutdownGraceMs: number;
  /**
   * How long after SIGTERM the server keeps serving with /api/health at 503, so a load balancer
   * takes it out before it stops accepting connections (at most half of shutdownGraceMs).
   */
  shutdownReadinessDelayMs: number;
  /**
   * Answer the marketing routes with their build-time HTML (web/dist/prerendered). false: the
   * SPA shell for every route, as before prerendering (the Lighthouse bench's baseline).
   */
  prerender: boolean;
  oidc: { google: OidcSettings | undefined; replit: OidcSettings | undefined };
  /** Stripe when its three keys are set; otherwise the local payment provider. */
  stripe: StripeSettings | undefined;
  /**
   * Whether the local (test card) provider may run in production. Without Stripe keys and without
   * this, NODE_ENV=production refuses to start.
   */
  allowTestPayments: boolean;
  /** Hosts or CIDRs a Pro restream may reach even though they are loopback or private (operators). */
  restreamAllowedHosts: string[];
  /** Open WebSockets (chat, video) one client address may hold on one instance. */
  socketsPerAddress: number;
  /** A session not used for this long ends (the 30-day absolute expiry still applies). */
  sessionIdleTimeoutMs: number;
  /** RTMP ingest for encoders (OBS): the port to listen on, 0 for none. */
  rtmpPort: number;
  /** Open RTMP connections one address (IPv6: one /64) may hold; raise it behind a TLS terminator. */
  rtmpConnectionsPerAddress: number;
  /**
   * The server URL encoders are told to publish to (RTMP_URL; by default rtmp://<PUBLIC_URL's
   * host>[:port]/live).
   */
  rtmpUrl: string;
  /** Media (uploaded images) in an S3 bucket when S3_BUCKET is set; otherwise under DATA_DIR/media. */
  s3: S3Settings | undefined;
  /** Mail through this SMTP server (SMTP_URL, with its credentials); undefined: .eml files in DATA_DIR/outbox. */
  smtpUrl: string | undefined;
  /** The sender of every message (MAIL_FROM; by default StreamShop <no-reply@PUBLIC_URL's host>). */
  mailFrom: string;
  /** Where the contact page's messages go (CONTACT_EMAIL; by default MAIL_FROM's address). */
  contactEmail: string;
  /** The platform's part of each sale, in percent (ADR 0016): written to the sellers' ledger. */
  platformFeePercent: number;
  /** The operator's other sites the web links to; an unset one is not shown (GET /api/site/links). */
  siteLinks: SiteLinkSettings;
}

export interface SiteLinkSettings {
  dropMode: string | undefined;
  streamDisc: string | undefined;
  streamshopLive: string | undefined;
  newsletterForm: string | undefined;
  pressKit: string | undefined;
}

/** The address in a From value: 'StreamShop <hi@shop.test>' -> 'hi@shop.test'. */
function addressOf(from: string): string {
  return /<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

export class ConfigError extends Error {}

/** Why several instances (REDIS_URL) without shared media storage do not start (docs/operations.md). */
const MEDIA_NOT_SHARED =
  "REDIS_URL is set (several instances) but media is kept in DATA_DIR/media on this machine: set S3_BUCKET so instances share media, or MEDIA_DIR_SHARED=true if every instance's DATA_DIR is the same shared folder";

/** rtmp://<the site's host>[:port]/live, the port left out when it is RTMP's own (1935). */
function defaultRtmpUrl(publicUrl: string, port: number): string {
  const host = new URL(publicUrl).hostname;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return `rtmp://${shownHost}${port === 1935 ? '' : `:${port}`}/live`;
}

function oidcSettings(issuer?: string, clientId?: string, clientSecret?: string) {
  return issuer && clientId && clientSecret ? { issuer, clientId, clientSecret } : undefined;
}

/** A secret kept in DATA_DIR so sessions survive restarts when SESSION_SECRET is not set. */
function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, '.session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const stripeKeys = [e.STRIPE_SECRET_KEY, e.STRIPE_PUBLISHABLE_KEY, e.STRIPE_WEBHOOK_SECRET];
  if (stripeKeys.some(Boolean) && !stripeKeys.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  Stripe needs all of STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (or none, for the local provider)',
    );
  }
  const usesLocalPayments = !stripeKeys.every(Boolean);
  if (e.NODE_ENV === 'production' && usesLocalPayments && e.ALLOW_TEST_PAYMENTS !== 'true') {
    throw new ConfigError(
      'Invalid configuration:\n  NODE_ENV=production needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET: without them payments go to the offline test card provider, which accepts 4242 4242 4242 4242 as a real payment. Set ALLOW_TEST_PAYMENTS=true to run a production build on test payments anyway (the payment pages then say "Test mode").',
    );
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      "Invalid configuration:\n  S3 needs both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or neither, for the SDK's own credentials)",
    );
  }
  if (!e.S3_BUCKET && (e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_BUCKET: is required when other S3_* settings are set',
    );
  }
  if (e.REDIS_URL && !e.S3_BUCKET && e.MEDIA_DIR_SHARED !== 'true') {
    throw new ConfigError(`Invalid configuration:\n  ${MEDIA_NOT_SHARED}`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const mailFrom = e.MAIL_FROM ?? `StreamShop <no-reply@${new URL(publicUrl).hostname}>`;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    sessionSecret: e.SESSION_SECRET ?? persistedSecret(dataDir),
    publicUrl,
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    seedDemo: e.SEED_DEMO === 'true',
    demoLive: e.DEMO_LIVE === 'true',
    trustProxy: e.TRUST_PROXY,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    shutdownReadinessDelayMs: e.SHUTDOWN_READINESS_DELAY_MS,
    prerender: e.PRERENDER === 'true',
    oidc: {
      google: oidcSettings(e.GOOGLE_ISSUER, e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET),
      replit: oidcSettings(e.REPLIT_ISSUER, e.REPLIT_CLIENT_ID, e.REPLIT_CLIENT_SECRET),
    },
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET,
          }
        : undefined,
    allowTestPayments: e.ALLOW_TEST_PAYMENTS === 'true',
    restreamAllowedHosts: e.RESTREAM_ALLOWED_HOSTS,
    sessionIdleTimeoutMs: e.SESSION_IDLE_TIMEOUT_HOURS * 3_600_000,
    socketsPerAddress: e.SOCKETS_PER_ADDRESS,
    rtmpPort: e.RTMP_PORT,
    rtmpConnectionsPerAddress: e.RTMP_CONNECTIONS_PER_ADDRESS,
    rtmpUrl: (e.RTMP_URL ?? defaultRtmpUrl(publicUrl, e.RTMP_PORT)).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom,
    contactEmail: e.CONTACT_EMAIL ?? addressOf(mailFrom),
    platformFeePercent: e.PLATFORM_FEE_PERCENT,
    siteLinks: {
      dropMode: e.DROP_MODE_URL,
      streamDisc: e.STREAM_DISC_URL,
      streamshopLive: e.STREAMSHOP_LIVE_URL,
      newsletterForm: e.NEWSLETTER_FORM_URL,
      pressKit: e.PRESS_KIT_URL,
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        }
      : undefined,
  };
}
