import { generateKeyPairSync } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdentities, users } from '../../db/schema.ts';
import { buildTestApp, sessionCookie, signUp, type TestApp } from '../../test/test-app.ts';
import {
  deriveNames,
  FLOW_TTL_SEC,
  flowCookieKey,
  handleBase,
  OidcClients,
  OidcFlowError,
  openFlow,
  type PendingFlow,
  sealFlow,
} from './oidc.ts';

/**
 * Drives the whole sign-in over real HTTP against a real OpenID Connect provider (oidc-provider,
 * in-memory adapter, its development login and consent pages) on 127.0.0.1.
 */

const PUBLIC_URL = 'http://localhost:3000';
const CLIENT_ID = 'streamshop-test';
const CLIENT_SECRET = 'test-only-client-secret-0123456789abcdef';
const FLOW_COOKIE = 'oidc_google';

/** The slice of oidc-provider's API used here (the package ships no type declarations). */
interface OidcProviderApp {
  callback(): RequestListener;
}
type OidcProviderClass = new (issuer: string, configuration: Record<string, unknown>) => OidcProviderApp;

/** Claims of the provider's accounts, by account id (the login typed on its dev login page). */
const accounts = new Map<string, Record<string, unknown>>();

const unavailable: RequestListener = (_request, response) => {
  response.statusCode = 503;
  response.end();
};

let idpServer: Server;
let idpHandler: RequestListener = unavailable;
let providerHandler: RequestListener = unavailable;
let issuer: string;
let t: TestApp;

beforeAll(async () => {
  idpServer = createServer((request, response) => idpHandler(request, response));
  await new Promise<void>((resolve) => idpServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(idpServer.address() as AddressInfo).port}`;

  const moduleName: string = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as { default: OidcProviderClass };
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PUBLIC_URL}/api/auth/google/callback`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig', kid: 'test-key' }] },
    cookies: { keys: ['test-only-cookie-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username', 'picture'],
    },
    async findAccount(_ctx: unknown, id: string) {
      const claims = accounts.get(id);
      return claims && { accountId: id, claims: async () => ({ ...claims, sub: id }) };
    },
    features: { devInteractions: { enabled: true } },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
  });
  providerHandler = provider.callback();
  idpHandler = providerHandler;

  t = await buildTestApp({
    publicUrl: PUBLIC_URL,
    oidc: { google: { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, replit: undefined },
  });
});

afterAll(async () => {
  await t?.close();
  idpServer?.closeAllConnections();
  await new Promise((resolve) => idpServer?.close(resolve));
});

/** Just enough of a browser's cookie store for one host. */
class CookieJar {
  readonly #cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || !value) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Plays the browser at the provider: follows its redirects and fills in its development login
 * (any password) and consent pages, until it redirects back to the app. Returns that path + query.
 */
async function atProvider(
  authorizationUrl: string,
  options: { login: string; jar?: CookieJar; abort?: boolean },
): Promise<string> {
  const jar = options.jar ?? new CookieJar();
  let url = new URL(authorizationUrl);
  let form: Record<string, string> | undefined;
  for (let step = 0; step < 20; step += 1) {
    if (url.origin === PUBLIC_URL) return `${url.pathname}${url.search}`;
    const headers: Record<string, string> = { cookie: jar.header() };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    jar.store(response);
    form = undefined;
    const location = response.headers.get('location');
    const body = await response.text();
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    if (response.status !== 200 || !url.pathname.startsWith('/interaction/')) {
      throw new Error(`unexpected ${response.status} from ${url.pathname}: ${body.slice(0, 500)}`);
    }
    if (options.abort) {
      url = new URL(`${url.pathname}/abort`, url);
      continue;
    }
    const prompt = /name="prompt" value="(\w+)"/.exec(body)?.[1];
    form = prompt === 'login' ? { prompt, login: options.login, password: 'any' } : { prompt: 'consent' };
  }
  throw new Error('the provider never redirected back');
}

async function startSignIn() {
  const response = await t.app.inject({ method: 'GET', url: '/api/auth/google' });
  expect(response.statusCode).toBe(302);
  const cookie = response.cookies.find((c) => c.name === FLOW_COOKIE);
  if (!cookie) throw new Error('no flow cookie');
  return { location: String(response.headers.location), cookie };
}

/** The whole round trip: app -> provider (login, consent) -> app callback. Returns the callback's answer. */
async function signInAs(login: string, options: { jar?: CookieJar; abort?: boolean } = {}) {
  const { location, cookie } = await startSignIn();
  const back = await atProvider(location, { login, ...options });
  expect(back.startsWith('/api/auth/google/callback?')).toBe(true);
  return t.app.inject({ method: 'GET', url: back, cookies: { [FLOW_COOKIE]: cookie.value } });
}

async function currentUser(response: Awaited<ReturnType<typeof signInAs>>) {
  expect(response.statusCode).toBe(302);
  expect(response.headers.location).toBe('/dashboard');
  const me = await t.app.inject({
    method: 'GET',
    url: '/api/auth/user',
    headers: { cookie: sessionCookie(response) },
  });
  expect(me.statusCode).toBe(200);
  return me.json() as { id: string; handle: string; email: string; firstName: string; lastName: string };
}

function signinError(response: { statusCode: number; headers: Record<string, unknown> }) {
  expect(response.statusCode).toBe(302);
  const location = String(response.headers.location);
  expect(location.startsWith('/signin?error=')).toBe(true);
  return new URL(location, PUBLIC_URL).searchParams.get('error');
}

describe('GET /api/auth/google', () => {
  it('redirects to the provider with PKCE, state and nonce, kept in a short-lived HttpOnly cookie', async () => {
    const { location, cookie } = await startSignIn();
    const url = new URL(location);
    expect(url.origin).toBe(issuer);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/google/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/api/auth/google/callback',
      maxAge: FLOW_TTL_SEC,
    });
    expect(location).not.toContain(CLIENT_SECRET);
  });
});

describe('the full sign-in against a real provider', () => {
  const jar = new CookieJar();
  let firstId = '';

  it('creates an account from the claims and signs in', async () => {
    accounts.set('alice-sub', {
      email: 'Alice.Smith@Example.com',
      email_verified: true,
      preferred_username: 'Alice.Smith',
      given_name: 'Alice',
      family_name: 'Smith',
      name: 'Alice Smith',
      picture: 'https://images.example.com/alice.png',
    });
    const response = await signInAs('alice-sub', { jar });
    expect(response.cookies.find((c) => c.name === FLOW_COOKIE)?.value).toBe('');
    const user = await currentUser(response);
    expect(user).toMatchObject({
      handle: 'alice_smith',
      email: 'alice.smith@example.com',
      firstName: 'Alice',
      lastName: 'Smith',
      profileImageUrl: 'https://images.example.com/alice.png',
      businessName: null,
    });
    firstId = user.id;
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash).toBeNull();
  });

  it('signs the same subject into the same account again (no duplicate)', async () => {
    // The same browser: the provider remembers the session and consent and redirects straight back.
    const again = await currentUser(await signInAs('alice-sub', { jar }));
    expect(again.id).toBe(firstId);
    // A fresh browser: logs in at the provider again.
    const fresh = await currentUser(await signInAs('alice-sub'));
    expect(fresh.id).toBe(firstId);
    const links = await t.database.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.subject, 'alice-sub'));
    expect(links).toEqual([expect.objectContaining({ provider: 'google', userId: firstId })]);
    const rows = await t.database.db.select().from(users).where(eq(users.email, 'alice.smith@example.com'));
    expect(rows).toHaveLength(1);
  });

  it('links to an existing account with the same verified email', async () => {
    const existing = await signUp(t.app, { email: 'carol@example.com' });
    accounts.set('carol-sub', { email: 'carol@example.com', email_verified: true, name: 'Carol C' });
    const user = await currentUser(await signInAs('carol-sub'));
    expect(user.id).toBe(existing.user.id);
    expect(user.handle).toBe(existing.handle);
  });

  it('does not link on an unverified email that another account uses', async () => {
    await signUp(t.app, { email: 'erin@example.com' });
    accounts.set('erin-sub', { email: 'erin@example.com', email_verified: false, name: 'Erin E' });
    expect(signinError(await signInAs('erin-sub'))).toBe('email_in_use');
    const links = await t.database.db
      .select()
      .from(userIdentities)
      .where(eq(userIdentities.subject, 'erin-sub'));
    expect(links).toHaveLength(0);
  });

  it('appends digits to a taken handle and falls back to the name for first and last name', async () => {
    await signUp(t.app, { handle: 'dave' });
    accounts.set('dave-sub', { email: 'dave@example.org', email_verified: true, name: 'Dave Q Public' });
    const user = await currentUser(await signInAs('dave-sub'));
    expect(user).toMatchObject({ handle: 'dave2', firstName: 'Dave', lastName: 'Q Public' });
  });

  it('refuses an identity without an email', async () => {
    accounts.set('noemail-sub', { name: 'No Email' });
    expect(signinError(await signInAs('noemail-sub'))).toBe('email_required');
  });

  it('reports a refusal at the provider as access_denied', async () => {
    const response = await signInAs('alice-sub', { abort: true });
    expect(signinError(response)).toBe('access_denied');
    expect(response.cookies.find((c) => c.name === 'sid')).toBeUndefined();
  });

  it('rejects a callback whose state does not match', async () => {
    accounts.set('frank-sub', { email: 'frank@example.com', email_verified: true });
    const { location, cookie } = await startSignIn();
    const back = new URL(await atProvider(location, { login: 'frank-sub' }), PUBLIC_URL);
    back.searchParams.set('state', 'forged-state');
    const response = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      cookies: { [FLOW_COOKIE]: cookie.value },
    });
    expect(signinError(response)).toBe('state_mismatch');
    expect(response.cookies.find((c) => c.name === 'sid')).toBeUndefined();
  });

  it('rejects a callback without, or with a forged, flow cookie', async () => {
    const { location, cookie } = await startSignIn();
    const back = await atProvider(location, { login: 'frank-sub' });
    const without = await t.app.inject({ method: 'GET', url: back });
    expect(signinError(without)).toBe('expired');
    const forged = await t.app.inject({
      method: 'GET',
      url: back,
      cookies: { [FLOW_COOKIE]: `${cookie.value.slice(0, -2)}xx` },
    });
    expect(signinError(forged)).toBe('expired');
  });

  it('reports a failed code exchange (code already used) without a 500', async () => {
    const { location, cookie } = await startSignIn();
    const back = await atProvider(location, { login: 'frank-sub' });
    const first = await t.app.inject({ method: 'GET', url: back, cookies: { [FLOW_COOKIE]: cookie.value } });
    expect(first.headers.location).toBe('/dashboard');
    const replay = await t.app.inject({ method: 'GET', url: back, cookies: { [FLOW_COOKIE]: cookie.value } });
    expect(signinError(replay)).toBe('token_exchange_failed');
  });
});

describe('a provider that is not configured', () => {
  it('answers 501 with a small HTML page to a browser', async () => {
    for (const url of ['/api/auth/replit', '/api/auth/replit/callback?code=x&state=y']) {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      });
      expect(response.statusCode).toBe(501);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('Sign-in with Replit is not configured on this server.');
      expect(response.body).toContain('href="/signin"');
      expect(response.body).not.toMatch(/<script|<style/i);
    }
  });

  it('answers 501 NOT_CONFIGURED as JSON otherwise', async () => {
    for (const url of ['/api/auth/replit', '/api/auth/replit/callback']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(response.statusCode).toBe(501);
      expect(response.json()).toEqual({
        message: 'Sign-in with Replit is not configured on this server.',
        code: 'NOT_CONFIGURED',
      });
    }
  });

  it('says Google when Google is the one missing', async () => {
    const bare = await buildTestApp();
    try {
      const response = await bare.app.inject({ method: 'GET', url: '/api/auth/google' });
      expect(response.statusCode).toBe(501);
      expect(response.json()).toEqual({
        message: 'Sign-in with Google is not configured on this server.',
        code: 'NOT_CONFIGURED',
      });
    } finally {
      await bare.close();
    }
  });
});

describe('OidcClients', () => {
  it('does not cache a failed discovery: the next sign-in discovers again', async () => {
    const clients = new OidcClients(
      { google: { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, replit: undefined },
      PUBLIC_URL,
    );
    idpHandler = unavailable;
    try {
      await expect(clients.start('google')).rejects.toMatchObject({ code: 'provider_unavailable' });
    } finally {
      idpHandler = providerHandler;
    }
    const { url } = await clients.start('google');
    expect(url.origin).toBe(issuer);
  });

  it('refuses a plain-http issuer that is not on this machine', async () => {
    const clients = new OidcClients(
      { google: { issuer: 'http://idp.example.com', clientId: 'x', clientSecret: 'y' }, replit: undefined },
      PUBLIC_URL,
    );
    const error = await clients.start('google').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OidcFlowError);
    expect((error as OidcFlowError).code).toBe('provider_unavailable');
  });
});

describe('flow cookie', () => {
  const key = flowCookieKey('a-session-secret-for-this-test-only-0123');
  const flow: PendingFlow = {
    provider: 'google',
    state: 'state-value',
    nonce: 'nonce-value',
    codeVerifier: 'v'.repeat(43),
    expiresAt: Date.now() + 24 * 3600_000, // far enough that a slow run never reaches it
  };

  it('round-trips, and refuses a forged, foreign, stale or differently keyed cookie', () => {
    const sealed = sealFlow(key, flow);
    expect(openFlow(key, sealed, 'google')).toEqual(flow);
    expect(openFlow(key, sealed, 'replit')).toBeUndefined();
    expect(openFlow(key, sealed, 'google', flow.expiresAt + 1)).toBeUndefined();
    expect(openFlow(flowCookieKey('another-session-secret-0123456789abc'), sealed, 'google')).toBeUndefined();
    const [payload = '', signature = ''] = sealed.split('.');
    const altered = Buffer.from(JSON.stringify({ ...flow, state: 'other' })).toString('base64url');
    expect(openFlow(key, `${altered}.${signature}`, 'google')).toBeUndefined();
    expect(openFlow(key, `${payload}.`, 'google')).toBeUndefined();
    expect(openFlow(key, undefined, 'google')).toBeUndefined();
  });
});

describe('handles and names from claims', () => {
  it('derives a handle of 3-30 [a-z0-9_] characters', () => {
    expect(handleBase({ preferredUsername: 'Zoë.Müller', email: undefined, name: undefined })).toBe(
      'zoe_muller',
    );
    expect(handleBase({ preferredUsername: 'jo', email: 'Jo.Bloggs+x@example.com', name: undefined })).toBe(
      'jo_bloggs_x',
    );
    expect(handleBase({ preferredUsername: undefined, email: 'a@b.co', name: 'Ann Lee' })).toBe('ann_lee');
    expect(handleBase({ preferredUsername: '李', email: undefined, name: '!!' })).toBe('member');
    const long = handleBase({ preferredUsername: 'x'.repeat(50), email: undefined, name: undefined });
    expect(long).toHaveLength(30);
  });

  it('takes given and family names, else splits the name, else New Member', () => {
    expect(deriveNames({ givenName: 'Ada', familyName: 'Lovelace', name: 'Whatever' })).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    expect(
      deriveNames({ givenName: undefined, familyName: undefined, name: 'Grace  Brewster Hopper' }),
    ).toEqual({
      firstName: 'Grace',
      lastName: 'Brewster Hopper',
    });
    expect(deriveNames({ givenName: undefined, familyName: undefined, name: undefined })).toEqual({
      firstName: 'New',
      lastName: 'Member',
    });
  });
});
