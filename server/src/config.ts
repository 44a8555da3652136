import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalText = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());

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
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')),
  SHUTDOWN_GRACE_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).default(10_000)),
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
});

export interface StripeSettings {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

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
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (rate limits per IP). */
  trustProxy: boolean;
  shutdownGraceMs: number;
  /**
   * Answer the marketing routes with their build-time HTML (web/dist/prerendered). false: the
   * SPA shell for every route, as before prerendering (the Lighthouse bench's baseline).
   */
  prerender: boolean;
  oidc: { google: OidcSettings | undefined; replit: OidcSettings | undefined };
  /** Stripe when its three keys are set; otherwise the local payment provider. */
  stripe: StripeSettings | undefined;
}

export class ConfigError extends Error {}

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
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    sessionSecret: e.SESSION_SECRET ?? persistedSecret(dataDir),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    logLevel: e.LOG_LEVEL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    seedDemo: e.SEED_DEMO === 'true',
    trustProxy: e.TRUST_PROXY === 'true',
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
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
          }
        : undefined,
  };
}
