import { generateKeyPairSync } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdentities, users } from '../../db/schema.ts';
import { buildTestApp, sessionCookie, signUp, type TestApp } from '../../test/test-app.ts';
import { deriveNames, handleBase, LINK_LIMITS } from './oidc-accounts.ts';
import { OidcClients } from './oidc-clients.ts';
import {
  FLOW_TTL_SEC,
  flowCookieKey,
  LINK_TTL_SEC,
  linkCookieKey,
  openFlow,
  openLink,
  type PendingFlow,
  type PendingLink,
  sealFlow,
  sealLink,
} from './oidc-cookies.ts';
import { OidcFlowError } from './oidc-flow-error.ts';

/**
 * Drives the whole sign-in over real HTTP against a real OpenID Connect provider (oidc-provider,
 * in-memory adapter, its development login and consent pages) on 127.0.0.1.
 */

const PUBLIC_URL = 'http://localhost:3000';
const CLIENT_ID = 'streamshop-test';
const CLIENT_SECRET = 'test-only-client-secret-0123456789abcdef';
const FLOW_COOKIE = 'oidc_google';
const LINK_COOKIE = 'oidc_link';
type Provider = 'google' | 'replit';

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
/** What the app logged, and the last callback URL the provider sent the browser back to. */
const logLines: string[] = [];
let lastCallback = '';

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
        redirect_uris: [`${PUBLIC_URL}/api/auth/google/callback`, `${PUBLIC_URL}/api/auth/replit/callback`],
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

  t = await buildTestApp(
    {
      publicUrl: PUBLIC_URL,
      logLevel: 'info',
      oidc: { google: { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, replit: undefined },
    },
    { logStream: { write: (line) => logLines.push(line) } },
  );
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

async function startSignIn(provider: Provider = 'google', app: TestApp = t, next?: string) {
  const query = next === undefined ? '' : `?${new URLSearchParams({ next })}`;
  const response = await app.app.inject({ method: 'GET', url: `/api/auth/${provider}${query}` });
  expect(response.statusCode).toBe(302);
  const cookie = response.cookies.find((c) => c.name === `oidc_${provider}`);
  if (!cookie) throw new Error('no flow cookie');
  return { location: String(response.headers.location), cookie };
}

/**
 * The whole round trip: app -> provider (login, consent) -> app callback, with `cookies` (a
 * pending link) sent along to the callback. Returns the callback's answer.
 */
async function signInAs(
  login: string,
  options: {
    jar?: CookieJar;
    abort?: boolean;
    provider?: Provider;
    app?: TestApp;
    cookies?: Record<string, string>;
    /** The sign-in's `?next=`. */
    next?: string;
  } = {},
) {
  const { provider = 'google', app = t, cookies = {} } = options;
  const { location, cookie } = await startSignIn(provider, app, options.next);
  const back = await atProvider(location, { login, jar: options.jar, abort: options.abort });
  expect(back.startsWith(`/api/auth/${provider}/callback?`)).toBe(true);
  lastCallback = back;
  return app.app.inject({
    method: 'GET',
    url: back,
    cookies: { ...cookies, [`oidc_${provider}`]: cookie.value },
  });
}

type CallbackAnswer = Awaited<ReturnType<typeof signInAs>>;

async function currentUser(response: CallbackAnswer, app: TestApp = t) {
  expect(response.statusCode).toBe(302);
  expect(response.headers.location).toBe('/dashboard');
  const me = await app.app.inject({
    method: 'GET',
    url: '/api/auth/user',
    headers: { cookie: sessionCookie(response) },
  });
  expect(me.statusCode).toBe(200);
  return me.json() as { id: string; handle: string; email: string; firstName: string; lastName: string };
}

/** A callback that sent the browser to the link page: no session, and the pending link's cookie. */
function linkPage(response: CallbackAnswer): string {
  expect(response.statusCode).toBe(302);
  expect(response.headers.location).toBe('/link-account');
  expect(response.cookies.find((c) => c.name === 'sid')).toBeUndefined();
  const cookie = response.cookies.find((c) => c.name === LINK_COOKIE);
  if (!cookie?.value) throw new Error('no pending link cookie');
  return cookie.value;
}

async function identitiesOf(subject: string, app: TestApp = t) {
  return app.database.db.select().from(userIdentities).where(eq(userIdentities.subject, subject));
}

function linkWith(linkCookie: string | undefined, password: unknown, app: TestApp = t) {
  return app.app.inject({
    method: 'POST',
    url: '/api/auth/link',
    payload: { password },
    cookies: linkCookie === undefined ? {} : { [LINK_COOKIE]: linkCookie },
  });
}

/** An account whose owner confirmed its address (through the mailed link, here written directly). */
async function signUpVerified(app: TestApp['app'], overrides: Record<string, unknown>) {
  const account = await signUp(app, overrides);
  await t.database.pool.query('update users set email_verified_at = now() where id = $1', [account.user.id]);
  return account;
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
    // The authorization code and state are in the callback's URL, never in the log.
    const query = new URL(lastCallback, PUBLIC_URL).searchParams;
    const logged = logLines.join('');
    expect(logged).toContain('/api/auth/google/callback?');
    for (const name of ['code', 'state']) {
      expect(query.get(name)?.length).toBeGreaterThan(8);
      expect(logged).not.toContain(query.get(name));
    }
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

  it('refuses an identity whose email belongs to an account already linked to another subject', async () => {
    accounts.set('alice-other-sub', {
      email: 'alice.smith@example.com',
      email_verified: true,
      name: 'Alice S',
    });
    const response = await signInAs('alice-other-sub');
    expect(signinError(response)).toBe('email_linked');
    expect(response.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(await identitiesOf('alice-other-sub')).toHaveLength(0);
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

  it('does not offer a link to an account that has not confirmed its email', async () => {
    await signUp(t.app, { email: 'uma@example.com' });
    accounts.set('uma-sub', { email: 'uma@example.com', email_verified: true, name: 'Uma U' });
    const response = await signInAs('uma-sub');
    expect(signinError(response)).toBe('email_unconfirmed');
    expect(response.cookies.find((c) => c.name === LINK_COOKIE)).toBeUndefined();
    expect(await identitiesOf('uma-sub')).toHaveLength(0);
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

describe('returning to ?next= after an external sign-in', () => {
  const checkout = '/checkout/6f1c1f5e-2a4b-4c3d-9e8f-0123456789ab';

  it('keeps a same-site next in the signed flow cookie and lands there once signed in', async () => {
    accounts.set('nina-sub', { email: 'nina-returns@example.com', email_verified: true, name: 'Nina N' });
    const { cookie } = await startSignIn('google', t, checkout);
    expect(openFlow(flowCookieKey(t.config.sessionSecret), cookie.value, 'google')?.next).toBe(checkout);
    const response = await signInAs('nina-sub', { next: checkout });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(checkout);
    expect(response.cookies.find((c) => c.name === 'sid')?.value).toBeTruthy();
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example/checkout/1',
    'javascript:alert(1)',
    '/%2F%2Fevil.example',
    '/\t/evil.example',
  ])('drops the off-site next %j: the flow keeps none and the callback goes to /dashboard', async (next) => {
    const { cookie } = await startSignIn('google', t, next);
    expect(openFlow(flowCookieKey(t.config.sessionSecret), cookie.value, 'google')?.next).toBeUndefined();
    expect((await signInAs('nina-sub', { next })).headers.location).toBe('/dashboard');
  });

  it('passes next on to /signin when the sign-in fails, and to the link page', async () => {
    const failed = await signInAs('nina-sub', { next: checkout, abort: true });
    expect(signinError(failed)).toBe('access_denied');
    expect(new URL(String(failed.headers.location), PUBLIC_URL).searchParams.get('next')).toBe(checkout);

    await signUpVerified(t.app, { email: 'olga-returns@example.com', password: 'olga-password-1' });
    accounts.set('olga-returns-sub', {
      email: 'olga-returns@example.com',
      email_verified: true,
      name: 'Olga O',
    });
    const toLink = await signInAs('olga-returns-sub', { next: checkout });
    expect(toLink.statusCode).toBe(302);
    expect(toLink.headers.location).toBe(`/link-account?${new URLSearchParams({ next: checkout })}`);
    expect(toLink.cookies.find((c) => c.name === 'sid')).toBeUndefined();
  });
});

describe('an identity whose verified email an existing account has (no automatic linking)', () => {
  it('does not sign the victim into, or link them to, an account someone registered with their email', async () => {
    // The attacker registers with the victim's address and a password of their own.
    await signUp(t.app, { email: 'victim@example.com', password: 'attacker-pass-1' });
    accounts.set('victim-sub', { email: 'victim@example.com', email_verified: true, name: 'Vic Tim' });
    // The attacker never confirmed the address (they cannot): no link is even offered.
    const response = await signInAs('victim-sub');
    expect(signinError(response)).toBe('email_unconfirmed');
    expect(await identitiesOf('victim-sub')).toHaveLength(0);
    // Whatever the browser now holds, it is signed in to no account.
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      cookies: Object.fromEntries(response.cookies.map((c) => [c.name, c.value])),
    });
    expect(me.statusCode).toBe(401);
    // Signing in again still does not go in.
    expect(signinError(await signInAs('victim-sub'))).toBe('email_unconfirmed');
    expect(await identitiesOf('victim-sub')).toHaveLength(0);
  });

  it('keeps the pending link in a short-lived, HttpOnly, encrypted cookie', async () => {
    await signUpVerified(t.app, { email: 'hana@example.com' });
    accounts.set('hana-sub', { email: 'hana@example.com', email_verified: true, name: 'Hana H' });
    const response = await signInAs('hana-sub');
    linkPage(response);
    const cookie = response.cookies.find((c) => c.name === LINK_COOKIE);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/api/auth',
      maxAge: LINK_TTL_SEC,
    });
    const bytes = Buffer.from(cookie?.value ?? '', 'base64url').toString('latin1');
    expect(bytes).not.toContain('hana');
    expect(bytes).not.toContain('google');
  });

  it('tells the link page which sign-in waits for which account, and that it has a password', async () => {
    await signUpVerified(t.app, { email: 'ivan@example.com' });
    accounts.set('ivan-sub', { email: 'Ivan@Example.com', email_verified: true, name: 'Ivan I' });
    const linkCookie = linkPage(await signInAs('ivan-sub'));
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/auth/link',
      cookies: { [LINK_COOKIE]: linkCookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      provider: 'google',
      email: 'ivan@example.com',
      hasPassword: true,
      signInWith: [],
    });
  });

  it("links with the account's password and signs in; the next sign-in with the provider goes straight in", async () => {
    const owner = await signUpVerified(t.app, { email: 'jane@example.com', password: 'jane-secret-1' });
    accounts.set('jane-sub', { email: 'jane@example.com', email_verified: true, name: 'Jane J' });
    const linkCookie = linkPage(await signInAs('jane-sub'));

    const linked = await linkWith(linkCookie, 'jane-secret-1');
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ id: owner.user.id, handle: owner.handle });
    const cleared = linked.cookies.find((c) => c.name === LINK_COOKIE);
    expect(cleared?.value).toBe('');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie: sessionCookie(linked) },
    });
    expect(me.json()).toMatchObject({ id: owner.user.id });
    expect(await identitiesOf('jane-sub')).toEqual([
      expect.objectContaining({ provider: 'google', userId: owner.user.id }),
    ]);

    const again = await currentUser(await signInAs('jane-sub'));
    expect(again.id).toBe(owner.user.id);
  });

  it('refuses a wrong password with 401 and links nothing', async () => {
    await signUpVerified(t.app, { email: 'kim@example.com', password: 'kim-secret-12' });
    accounts.set('kim-sub', { email: 'kim@example.com', email_verified: true, name: 'Kim K' });
    const linkCookie = linkPage(await signInAs('kim-sub'));
    const response = await linkWith(linkCookie, 'not-kims-password');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      message: 'Incorrect password for the account with this email.',
      code: 'INVALID_CREDENTIALS',
    });
    expect(response.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(await identitiesOf('kim-sub')).toHaveLength(0);
    linkPage(await signInAs('kim-sub'));
  });

  it('limits password attempts per account', async () => {
    await signUpVerified(t.app, { email: 'lee@example.com', password: 'lee-secret-12' });
    accounts.set('lee-sub', { email: 'lee@example.com', email_verified: true, name: 'Lee L' });
    const linkCookie = linkPage(await signInAs('lee-sub'));
    for (let attempt = 0; attempt < LINK_LIMITS.perAccount; attempt += 1) {
      expect((await linkWith(linkCookie, `wrong-${attempt}`)).statusCode).toBe(401);
    }
    const limited = await linkWith(linkCookie, 'lee-secret-12');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await identitiesOf('lee-sub')).toHaveLength(0);
  });

  it('checks at most the limit of password attempts sent at once', async () => {
    await signUpVerified(t.app, { email: 'lou@example.com', password: 'lou-secret-12' });
    accounts.set('lou-sub', { email: 'lou@example.com', email_verified: true, name: 'Lou L' });
    const linkCookie = linkPage(await signInAs('lou-sub'));
    // From an address of its own: the per-address limit (50) is not what this counts.
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, attempt) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/link',
          remoteAddress: '198.51.100.60',
          payload: { password: `wrong-${attempt}` },
          cookies: { [LINK_COOKIE]: linkCookie },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LINK_LIMITS.perAccount);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25 - LINK_LIMITS.perAccount);
    expect(await identitiesOf('lou-sub')).toHaveLength(0);
  });

  it('refuses a missing, forged, foreign or expired pending link before reading the body', async () => {
    const noLink = 'No sign-in is waiting to be linked. Continue with Google or Replit again.';
    for (const method of ['GET', 'POST'] as const) {
      const without = await t.app.inject({
        method,
        url: '/api/auth/link',
        payload: method === 'POST' ? {} : undefined,
      });
      expect(without.statusCode).toBe(400);
      expect(without.json()).toEqual({ message: noLink, code: 'BAD_REQUEST' });
    }

    await signUpVerified(t.app, { email: 'mo@example.com', password: 'mo-secret-123' });
    accounts.set('mo-sub', { email: 'mo@example.com', email_verified: true, name: 'Mo M' });
    const linkCookie = linkPage(await signInAs('mo-sub'));
    const flipped = `${linkCookie.slice(0, 20)}${linkCookie[20] === 'A' ? 'B' : 'A'}${linkCookie.slice(21)}`;
    const forged = await linkWith(flipped, 'mo-secret-123');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(noLink);

    const link: PendingLink = {
      provider: 'google',
      subject: 'mo-sub',
      email: 'mo@example.com',
      expiresAt: Date.now() + 60_000,
    };
    const otherKey = linkCookieKey('another-session-secret-0123456789abcdef');
    expect((await linkWith(sealLink(otherKey, link), 'mo-secret-123')).statusCode).toBe(400);

    const key = linkCookieKey(t.config.sessionSecret);
    const expired = await linkWith(sealLink(key, { ...link, expiresAt: Date.now() - 1 }), 'mo-secret-123');
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({
      message: 'This request to link your Google sign-in has expired. Continue with Google again.',
      code: 'BAD_REQUEST',
    });
    expect(expired.cookies.find((c) => c.name === 'sid')).toBeUndefined();
    expect(await identitiesOf('mo-sub')).toHaveLength(0);
  });

  it('answers 400 for a missing password only once the pending link is there', async () => {
    await signUpVerified(t.app, { email: 'ned@example.com' });
    accounts.set('ned-sub', { email: 'ned@example.com', email_verified: true, name: 'Ned N' });
    const linkCookie = linkPage(await signInAs('ned-sub'));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/link',
      payload: {},
      cookies: { [LINK_COOKIE]: linkCookie },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { password: 'Password is required' },
    });
  });

  it('drops the pending link on Cancel', async () => {
    await signUpVerified(t.app, { email: 'olga@example.com' });
    accounts.set('olga-sub', { email: 'olga@example.com', email_verified: true, name: 'Olga O' });
    const linkCookie = linkPage(await signInAs('olga-sub'));
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/link',
      cookies: { [LINK_COOKIE]: linkCookie },
    });
    expect(cancel.statusCode).toBe(204);
    const cleared = cancel.cookies.find((c) => c.name === LINK_COOKIE);
    expect(cleared).toMatchObject({ value: '', path: '/api/auth' });
    expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
  });
});

describe('an account made with another provider (no password)', () => {
  let both: TestApp;

  beforeAll(async () => {
    const settings = { issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET };
    both = await buildTestApp({ publicUrl: PUBLIC_URL, oidc: { google: settings, replit: settings } });
  });

  afterAll(async () => {
    await both?.close();
  });

  it('is never linked automatically: the page is told to send them to the provider they used first', async () => {
    accounts.set('pat-sub', { email: 'pat@example.com', email_verified: true, name: 'Pat P' });
    const first = await currentUser(await signInAs('pat-sub', { provider: 'replit', app: both }), both);

    const callback = await signInAs('pat-sub', { provider: 'google', app: both });
    const linkCookie = linkPage(callback);
    expect(await identitiesOf('pat-sub', both)).toEqual([
      expect.objectContaining({ provider: 'replit', userId: first.id }),
    ]);
    const described = await both.app.inject({
      method: 'GET',
      url: '/api/auth/link',
      cookies: { [LINK_COOKIE]: linkCookie },
    });
    expect(described.json()).toEqual({
      provider: 'google',
      email: 'pat@example.com',
      hasPassword: false,
      signInWith: ['replit'],
    });
    const withPassword = await linkWith(linkCookie, 'any-password-at-all', both);
    expect(withPassword.statusCode).toBe(409);
    expect(withPassword.json().message).toBe(
      'That account has no password. Continue with Replit to link your Google sign-in to it.',
    );
    expect(withPassword.cookies.find((c) => c.name === 'sid')).toBeUndefined();

    // Signing in with Replit proves the account is theirs and completes the pending link.
    const viaReplit = await signInAs('pat-sub', {
      provider: 'replit',
      app: both,
      cookies: { [LINK_COOKIE]: linkCookie },
    });
    expect((await currentUser(viaReplit, both)).id).toBe(first.id);
    expect(viaReplit.cookies.find((c) => c.name === LINK_COOKIE)?.value).toBe('');
    const viaGoogle = await currentUser(await signInAs('pat-sub', { provider: 'google', app: both }), both);
    expect(viaGoogle.id).toBe(first.id);
  });

  it('does not complete a pending link by a sign-in to an account with another email', async () => {
    accounts.set('quinn-sub', { email: 'quinn@example.com', email_verified: true, name: 'Quinn Q' });
    accounts.set('rosa-sub', { email: 'rosa@example.com', email_verified: true, name: 'Rosa R' });
    await currentUser(await signInAs('quinn-sub', { provider: 'replit', app: both }), both);
    const linkCookie = linkPage(await signInAs('quinn-sub', { provider: 'google', app: both }));
    const rosa = await currentUser(
      await signInAs('rosa-sub', { provider: 'replit', app: both, cookies: { [LINK_COOKIE]: linkCookie } }),
      both,
    );
    expect(rosa.email).toBe('rosa@example.com');
    expect((await identitiesOf('quinn-sub', both)).map((identity) => identity.provider)).toEqual(['replit']);
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

describe('link cookie', () => {
  const key = linkCookieKey('a-session-secret-for-this-test-only-0123');
  const link: PendingLink = {
    provider: 'google',
    subject: 'subject-value',
    email: 'someone@example.com',
    expiresAt: Date.now() + 24 * 3600_000,
  };

  it('round-trips encrypted, and refuses a forged, differently keyed or stale cookie', () => {
    const sealed = sealLink(key, link);
    expect(openLink(key, sealed)).toEqual({ link });
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('someone');
    expect(sealLink(key, link)).not.toBe(sealed); // a fresh IV each time
    expect(openLink(key, sealed, link.expiresAt + 1)).toEqual({ problem: 'expired', provider: 'google' });
    expect(openLink(linkCookieKey('another-session-secret-0123456789abc'), sealed)).toEqual({
      problem: 'invalid',
    });
    const bytes = Buffer.from(sealed, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(openLink(key, bytes.toString('base64url'))).toEqual({ problem: 'invalid' });
    expect(openLink(key, 'short')).toEqual({ problem: 'invalid' });
    expect(openLink(key, undefined)).toEqual({ problem: 'missing' });
    // The flow cookie's key does not open it.
    expect(openLink(flowCookieKey('a-session-secret-for-this-test-only-0123'), sealed)).toEqual({
      problem: 'invalid',
    });
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
