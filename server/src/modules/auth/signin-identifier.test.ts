import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, sessionCookie, signUp, type TestApp } from '../../test/test-app.ts';
import { SIGNIN_LIMITS } from './service.ts';

/** Issue 27 item 9: sign-in takes the handle or the account's email address. */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const signIn = (handle: string, password: string, remoteAddress = '192.0.2.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/signin', remoteAddress, payload: { handle, password } });

describe('sign-in by handle or email', () => {
  it('signs in with the email address, in any case and with surrounding spaces', async () => {
    const account = await signUp(t.app);
    const response = await signIn(`  ${account.email.toUpperCase()} `, account.password);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: account.user.id, handle: account.handle });
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie: sessionCookie(response) } });
    expect(me.json().id).toBe(account.user.id);
  });

  it('still signs in with the handle', async () => {
    const account = await signUp(t.app);
    const response = await signIn(account.handle, account.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(account.user.id);
  });

  it('answers a wrong password by email, an unknown email and an unknown handle with the same 401', async () => {
    const account = await signUp(t.app);
    const answers = [
      await signIn(account.email, 'wrong password'),
      await signIn('nobody-at-all@example.com', 'wrong password'),
      await signIn('nobody_at_all', 'wrong password'),
    ];
    for (const response of answers) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
      expect(response.cookies).toHaveLength(0);
    }
  });

  it('checks the password of the account the email names, not of one whose handle the email starts with', async () => {
    const owner = await signUp(t.app, { password: 'the owner password' });
    // Another account's email address begins with the owner's handle.
    const other = await signUp(t.app, { email: `${owner.handle}@elsewhere.example.com` });
    expect((await signIn(other.email, owner.password)).statusCode).toBe(401);
    const response = await signIn(other.email, other.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(other.user.id);
  });

  it('signs in a deleted account by neither its handle nor its email', async () => {
    const account = await signUp(t.app);
    await t.database.pool.query('update users set deleted_at = now() where id = $1', [account.user.id]);
    expect((await signIn(account.email, account.password)).statusCode).toBe(401);
    expect((await signIn(account.handle, account.password)).statusCode).toBe(401);
  });

  it('names the field in words when it is blank or too long', async () => {
    const blank = await signIn(' @ ', 'whatever1');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ handle: 'Handle or email is required' });
    const long = await signIn(`${'a'.repeat(250)}@example.com`, 'whatever1');
    expect(long.statusCode).toBe(400);
    expect(long.json().fields).toEqual({ handle: 'Handle or email is too long' });
  });
});

describe('guess limits by handle or email', () => {
  it(`counts the handle and the email of one account together: ${SIGNIN_LIMITS.perHandle} guesses, alternating, then 429`, async () => {
    const account = await signUp(t.app);
    const address = '192.0.2.50';
    const statuses: number[] = [];
    for (let i = 0; i < SIGNIN_LIMITS.perHandle; i++) {
      const identifier = i % 2 === 0 ? account.handle : account.email.toUpperCase();
      statuses.push((await signIn(identifier, 'wrong password', address)).statusCode);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    for (const identifier of [account.handle, `@${account.handle}`, account.email]) {
      const refused = await signIn(identifier, 'wrong password', address);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The right password, by either name, waits too; from another address the owner gets in.
    expect((await signIn(account.email, account.password, address)).statusCode).toBe(429);
    expect((await signIn(account.email, account.password, '192.0.2.51')).statusCode).toBe(200);
  });

  it('does not let one account’s failures lock another account out', async () => {
    const guessed = await signUp(t.app);
    const neighbour = await signUp(t.app);
    const address = '192.0.2.60';
    for (let i = 0; i < SIGNIN_LIMITS.perHandle; i++) await signIn(guessed.email, 'wrong password', address);
    expect((await signIn(guessed.handle, 'wrong password', address)).statusCode).toBe(429);
    expect((await signIn(neighbour.email, neighbour.password, address)).statusCode).toBe(200);
  });

  it('limits guesses at an unknown email as at an unknown handle', async () => {
    const address = '192.0.2.70';
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNIN_LIMITS.perHandle; i++) {
      statuses.push((await signIn('Nobody.Here@Example.com', 'wrong password', address)).statusCode);
    }
    expect(statuses.slice(0, SIGNIN_LIMITS.perHandle).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
