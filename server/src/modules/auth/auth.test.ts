import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, newAccount, sessionCookie, signUp, type TestApp } from '../../test/test-app.ts';
import { SIGNIN_LIMITS } from './service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('sign-up', () => {
  it('creates the account, signs it in and returns the user without secrets', async () => {
    const account = newAccount({ handle: '@New_Seller', businessName: '  Vinyl Vault  ' });
    const response = await post('/api/auth/signup', account);
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toMatchObject({
      handle: 'new_seller',
      email: account.email,
      firstName: 'Ada',
      businessName: 'Vinyl Vault',
      plan: 'free',
    });
    expect(response.body).not.toMatch(/password|hash|argon|sid/i);
    const cookie = response.cookies.find((c) => c.name === 'sid');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie: sessionCookie(response) } });
    expect(me.statusCode).toBe(200);
    expect(me.json().handle).toBe('new_seller');
  });

  it('stores only an argon2id hash of the password', async () => {
    const { user, password } = await signUp(t.app);
    const { rows } = await t.database.pool.query('select password_hash from users where id = $1', [user.id]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0].password_hash).not.toContain(password);
  });

  it.each([
    ['firstName', { firstName: '   ' }, 'First name is required'],
    ['lastName', { lastName: undefined }, 'Last name is required'],
    ['handle', { handle: '' }, 'Handle is required'],
    ['handle', { handle: 'ab' }, 'Handle must be 3-30 characters of a-z, 0-9 and _'],
    ['handle', { handle: 'has space' }, 'Handle must be 3-30 characters of a-z, 0-9 and _'],
    ['handle', { handle: 'x'.repeat(31) }, 'Handle must be 3-30 characters of a-z, 0-9 and _'],
    ['email', { email: 'not-an-email' }, 'Please enter a valid email address.'],
    ['email', { email: 'a b@c.de' }, 'Please enter a valid email address.'],
    ['password', { password: 'short' }, 'Password must be at least 8 characters long.'],
    ['password', { password: 12345678 }, undefined],
  ])('rejects a bad %s with 400 naming the field (%j)', async (field, override, reason) => {
    const response = await post('/api/auth/signup', newAccount(override));
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(body.fields)).toContain(field);
    if (reason) expect(body.fields[field]).toBe(reason);
    expect(body.message).toContain(field);
  });

  it('gives 409 for a handle taken in another letter case, and writes nothing', async () => {
    const first = await signUp(t.app);
    const again = newAccount({ handle: first.handle.toUpperCase() });
    const response = await post('/api/auth/signup', again);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'HANDLE_TAKEN', fields: { handle: 'is already taken' } });
    const { rows } = await t.database.pool.query('select count(*)::int as n from users where email = $1', [
      again.email,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('gives 409 for an email already registered, whatever its case', async () => {
    const first = await signUp(t.app);
    const response = await post('/api/auth/signup', newAccount({ email: first.email.toUpperCase() }));
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('EMAIL_TAKEN');
  });

  it('ignores unknown fields such as a plan the client tries to set', async () => {
    const response = await post('/api/auth/signup', { ...newAccount(), plan: 'pro', id: 'x' });
    expect(response.statusCode).toBe(201);
    expect(response.json().plan).toBe('free');
  });
});

describe('sign-in', () => {
  it('accepts the handle with a leading @, spaces and any case, and rotates the session id', async () => {
    const account = await signUp(t.app);
    const response = await post(
      '/api/auth/signin',
      { handle: `  @${account.handle.toUpperCase()} `, password: account.password },
      { cookie: account.cookie },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().handle).toBe(account.handle);
    const fresh = sessionCookie(response);
    expect(fresh).not.toBe(account.cookie);
    const old = await t.app.inject({ url: '/api/auth/user', headers: { cookie: account.cookie } });
    expect(old.statusCode).toBe(401);
    const now = await t.app.inject({ url: '/api/auth/user', headers: { cookie: fresh } });
    expect(now.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown handle with the same 401', async () => {
    const account = await signUp(t.app);
    const wrong = await post('/api/auth/signin', { handle: account.handle, password: 'wrong password' });
    const unknown = await post('/api/auth/signin', { handle: 'nobody_here', password: 'wrong password' });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('rejects blank fields with 400', async () => {
    const response = await post('/api/auth/signin', { handle: ' @ ', password: '' });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields).sort()).toEqual(['handle', 'password']);
  });

  it('throttles repeated attempts on one handle with 429 and Retry-After', async () => {
    const account = await signUp(t.app);
    const statuses: number[] = [];
    let last = await post('/api/auth/signin', { handle: account.handle, password: 'nope nope' });
    statuses.push(last.statusCode);
    for (let i = 0; i < SIGNIN_LIMITS.perHandle; i++) {
      last = await post('/api/auth/signin', { handle: account.handle, password: 'nope nope' });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, SIGNIN_LIMITS.perHandle).every((s) => s === 401)).toBe(true);
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password is refused while throttled.
    const right = await post('/api/auth/signin', { handle: account.handle, password: account.password });
    expect(right.statusCode).toBe(429);
  });

  it('lets the owner in from an address that has not failed while another address is locked out', async () => {
    const account = await signUp(t.app);
    const from = (remoteAddress: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        remoteAddress,
        payload: { handle: account.handle, password },
      });
    for (let i = 0; i < SIGNIN_LIMITS.perHandle; i++) await from('198.51.100.20', 'wrong password');
    expect((await from('198.51.100.20', 'wrong password')).statusCode).toBe(429);
    expect((await from('198.51.100.21', account.password)).statusCode).toBe(200);
    expect((await from('198.51.100.20', account.password)).statusCode).toBe(429);
  });

  it('counts only failures: many correct sign-ins in a row all get in', async () => {
    const account = await signUp(t.app);
    for (let i = 0; i < SIGNIN_LIMITS.perHandle + 5; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        remoteAddress: '198.51.100.30',
        payload: { handle: account.handle, password: account.password },
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('throttles one client address across many handles', async () => {
    const ip = '203.0.113.9';
    let last = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      remoteAddress: ip,
      payload: { handle: 'someone_0', password: 'whatever1' },
    });
    for (let i = 1; i <= SIGNIN_LIMITS.perIp; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        remoteAddress: ip,
        payload: { handle: `someone_${i}`, password: 'whatever1' },
      });
    }
    expect(last.statusCode).toBe(429);
  });
});

describe('sign-out and the current user', () => {
  it('GET /api/auth/user is 401 without a session', async () => {
    const response = await t.app.inject({ url: '/api/auth/user' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Unauthorized', code: 'UNAUTHORIZED' });
  });

  it('a forged or garbage cookie is just signed out', async () => {
    for (const cookie of ['sid=forged', `sid=${'x'.repeat(500)}`, 'sid=']) {
      const response = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
      expect(response.statusCode).toBe(401);
    }
  });

  it('POST /api/auth/logout ends the session server-side', async () => {
    const account = await signUp(t.app);
    const response = await post('/api/auth/logout', undefined, { cookie: account.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie: account.cookie } });
    expect(me.statusCode).toBe(401);
  });
});

describe('cross-site requests', () => {
  it('refuses a state-changing request from another origin', async () => {
    const response = await post('/api/auth/signup', newAccount(), { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('CSRF_REJECTED');
  });

  it('refuses a cross-site fetch without Origin', async () => {
    const response = await post('/api/auth/logout', undefined, { 'sec-fetch-site': 'cross-site' });
    expect(response.statusCode).toBe(403);
  });

  it('accepts our own origin', async () => {
    const response = await post('/api/auth/signup', newAccount(), { origin: 'http://localhost:3000' });
    expect(response.statusCode).toBe(201);
  });
});

describe('passwordless handle sign-in (ADR 0003)', () => {
  it('is not an endpoint: POST /api/auth with only a handle signs nobody in', async () => {
    const account = await signUp(t.app);
    const response = await post('/api/auth', { handle: account.handle });
    expect(response.statusCode).toBe(404);
    expect(response.cookies).toHaveLength(0);
  });
});

describe('behind a reverse proxy (TRUST_PROXY=true)', () => {
  it('throttles by the forwarded client address, not the proxy’s', async () => {
    const proxied = await buildTestApp({ trustProxy: 1 });
    try {
      const attempt = (client: string) =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/auth/signin',
          headers: { 'x-forwarded-for': client },
          payload: { handle: `someone_${Math.random().toString(36).slice(2, 8)}`, password: 'whatever1' },
        });
      let last = await attempt('198.51.100.7');
      for (let i = 0; i < SIGNIN_LIMITS.perIp; i++) last = await attempt('198.51.100.7');
      expect(last.statusCode).toBe(429);
      expect((await attempt('198.51.100.8')).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});
