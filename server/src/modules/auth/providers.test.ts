import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config, OidcSettings } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../test/test-app.ts';

/**
 * Which external sign-in buttons the sign-in and sign-up pages show (GET /api/auth/providers),
 * and what a provider's own address does once it is not configured. Listing needs no discovery,
 * so the issuer is never contacted here.
 */

const settings: OidcSettings = {
  issuer: 'https://idp.example.com',
  clientId: 'streamshop-test',
  clientSecret: 'test-only-client-secret',
};

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The app with these providers configured, sharing this file's database. */
async function withProviders<T>(oidc: Config['oidc'], use: (app: TestApp['app']) => Promise<T>) {
  const t = await buildTestApp({ oidc }, { database });
  try {
    return await use(t.app);
  } finally {
    await t.close();
  }
}

describe('GET /api/auth/providers', () => {
  it('lists none on a default install, to a visitor without a session', async () => {
    await withProviders({ google: undefined, replit: undefined }, async (app) => {
      const response = await app.inject({ method: 'GET', url: '/api/auth/providers' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.json()).toEqual({ providers: [] });
    });
  });

  it('lists Google alone when only Google is configured', async () => {
    await withProviders({ google: settings, replit: undefined }, async (app) => {
      const response = await app.inject({ method: 'GET', url: '/api/auth/providers' });
      expect(response.json()).toEqual({ providers: [{ id: 'google', label: 'Google' }] });
    });
  });

  it('lists both, Google first, when both are configured', async () => {
    await withProviders({ google: settings, replit: settings }, async (app) => {
      const response = await app.inject({ method: 'GET', url: '/api/auth/providers' });
      expect(response.json()).toEqual({
        providers: [
          { id: 'google', label: 'Google' },
          { id: 'replit', label: 'Replit' },
        ],
      });
    });
  });
});

describe('a provider that is not configured', () => {
  it('sends its sign-in and callback addresses to /signin?error=<provider>_not_configured', async () => {
    await withProviders({ google: settings, replit: undefined }, async (app) => {
      for (const [url, accept] of [
        ['/api/auth/replit', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
        ['/api/auth/replit/callback?code=x&state=y', 'text/html'],
        ['/api/auth/replit', 'application/json'],
      ] as const) {
        const response = await app.inject({ method: 'GET', url, headers: { accept } });
        expect(response.statusCode, url).toBe(302);
        expect(response.headers.location, url).toBe('/signin?error=replit_not_configured');
        expect(response.headers['cache-control'], url).toBe('no-store');
      }
    });
  });

  it('names Google when Google is the one missing', async () => {
    await withProviders({ google: undefined, replit: undefined }, async (app) => {
      const response = await app.inject({ method: 'GET', url: '/api/auth/google' });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/signin?error=google_not_configured');
    });
  });
});
