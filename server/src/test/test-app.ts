import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AppDeps, buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import type { RateLimiter } from '../platform/rate-limit.ts';
import { SOCKETS_PER_ADDRESS } from '../platform/socket-cap.ts';
import { newAccount } from './accounts.ts';
import { seedDataDirFromTemplate } from './pglite-template.ts';
import { createThrowawayDatabase } from './throwaway-database.ts';

/**
 * A fresh database for one test file: an embedded PGlite in a temp folder (a copy of the migrated
 * template, removed on close) by default, or a new database on the PostgreSQL server of
 * TEST_DATABASE_URL (dropped again on close), so the suite runs on both.
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ss-testdb-'));
    try {
      await seedDataDirFromTemplate(dataDir);
      const database = await openDatabase({ dataDir });
      return {
        ...database,
        async close() {
          await database.close();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw error;
    }
  }
  const throwaway = await createThrowawayDatabase(serverUrl, 'test');
  const database = await openDatabase({ databaseUrl: throwaway.url });
  return {
    ...database,
    async close() {
      await database.close();
      await throwaway.drop();
    },
  };
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ss-test-'));
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: undefined,
    redisUrl: undefined,
    sessionSecret: randomBytes(32).toString('hex'),
    publicUrl: 'http://localhost:3000',
    logLevel: 'silent',
    bodyLimitBytes: 1_048_576,
    seedDemo: false,
    demoLive: false,
    trustProxy: false,
    shutdownGraceMs: 1000,
    shutdownReadinessDelayMs: 0,
    prerender: true,
    oidc: { google: undefined, replit: undefined },
    stripe: undefined,
    allowTestPayments: false,
    restreamAllowedHosts: [],
    s3: undefined,
    sessionIdleTimeoutMs: 7 * 24 * 3_600_000,
    socketsPerAddress: SOCKETS_PER_ADDRESS,
    // No RTMP listener unless a test asks for one (on a free port).
    rtmpPort: 0,
    rtmpConnectionsPerAddress: 10,
    rtmpUrl: 'rtmp://localhost/live',
    // Mail as .eml files in dataDir/outbox unless a test gives its SMTP server.
    smtpUrl: undefined,
    mailFrom: 'StreamShop <no-reply@localhost>',
    contactEmail: 'no-reply@localhost',
    platformFeePercent: 0,
    siteLinks: {
      dropMode: undefined,
      streamDisc: undefined,
      streamshopLive: undefined,
      newsletterForm: undefined,
      pressKit: undefined,
    },
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

/** The real app on a fresh database; close() tears both down. */
export async function buildTestApp(overrides: Partial<Config> = {}, deps: AppDeps = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const database = deps.database ?? (await createTestDatabase());
  const app = await buildApp(config, { ...deps, database });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      if (!deps.database) await database.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** The session cookie a response set, as a Cookie header value for the next request. */
export function sessionCookie(response: LightMyRequestResponse): string {
  // `__Host-sid` when the app's PUBLIC_URL is https.
  const cookie = response.cookies.find((c) => c.name === 'sid' || c.name === '__Host-sid');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

// In a file of its own so that process-level harness code (checkout-drill.ts) need not load the app.
export { newAccount } from './accounts.ts';

/** Signs up a fresh account and returns its handle, password and session cookie. */
export async function signUp(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const account = newAccount(overrides);
  const response = await app.inject({ method: 'POST', url: '/api/auth/signup', payload: account });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return { ...account, cookie: sessionCookie(response), user: response.json() };
}

const addressesUsed = new Map<string, number>();

/**
 * Signs up a fresh account from a client address of its own under `prefix` (two octets, such as
 * '10.31'), so the per-address limits never get in the way; answers the account with its session
 * cookie, id and that address (to send as `remoteAddress` on its later requests).
 */
export async function signUpFrom(
  app: FastifyInstance,
  prefix: string,
  overrides: Record<string, unknown> = {},
) {
  const used = (addressesUsed.get(prefix) ?? 0) + 1;
  addressesUsed.set(prefix, used);
  const ip = `${prefix}.${Math.floor(used / 250)}.${(used % 250) + 1}`;
  const account = newAccount(overrides);
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: account,
    remoteAddress: ip,
  });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return { ...account, cookie: sessionCookie(response), id: response.json().id as string, ip };
}

/** Listens on a free loopback port, for tests that need real sockets; returns the ws:// base URL. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('server has no address');
  return `ws://127.0.0.1:${address.port}`;
}

/** A rate limiter that allows everything, for tests that sign up more accounts than one address may. */
export const unlimited: RateLimiter = {
  hit: async () => ({ allowed: true, retryAfterSec: 0 }),
  reserve: async () => ({ allowed: true, retryAfterSec: 0, release: async () => {} }),
  reset: async () => {},
};
