import { PASSWORD_RESET_REQUESTED_MESSAGE, TOKEN_MESSAGES } from '@streamshop/contract/account-recovery.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import { useMailTestApp } from '../../test/mail-test-app.ts';
import { linkIn, type ReceivedMail, type TestSmtpServer } from '../../test/smtp-server.ts';
import { newAccount, sessionCookie, type TestApp } from '../../test/test-app.ts';

/**
 * Verification and password reset through the API, with every message read from a real SMTP
 * server on 127.0.0.1 and its link followed as the browser would.
 */

let smtp: TestSmtpServer;
let t: TestApp;

useMailTestApp((started) => {
  ({ smtp, t } = started);
});

type Account = ReturnType<typeof newAccount> & { cookie: string };

const post = (url: string, payload?: object, cookie?: string) =>
  t.app.inject({ method: 'POST', url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const currentUser = (cookie: string) => t.app.inject({ url: '/api/auth/user', headers: { cookie } });

async function signUp(): Promise<Account> {
  const account = newAccount();
  const response = await post('/api/auth/signup', account);
  expect(response.statusCode, response.body).toBe(201);
  expect(response.json().emailVerified).toBe(false);
  return { ...account, cookie: sessionCookie(response) };
}

const mailTo = (email: string, subject: string) =>
  smtp.waitFor((m) => m.to === email && m.subject === subject);
const tokenOf = (mail: ReceivedMail, pathname: string) =>
  linkIn(mail, pathname).searchParams.get('token') ?? '';
const countTo = (email: string, subject: string) =>
  smtp.received.filter((m) => m.to === email && m.subject === subject).length;

describe('email verification', () => {
  it('mails a link at sign-up whose token verifies the address once', async () => {
    const account = await signUp();
    const mail = await mailTo(account.email, 'Confirm your email address');
    const link = linkIn(mail, '/verify-email');
    expect(link.origin).toBe('http://localhost:3000');
    expect(mail.html).toContain(`href="${link.href}"`);

    const verified = await post('/api/auth/verify-email', { token: link.searchParams.get('token') });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({ email: account.email });
    expect((await currentUser(account.cookie)).json().emailVerified).toBe(true);

    const again = await post('/api/auth/verify-email', { token: link.searchParams.get('token') });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ code: 'TOKEN_USED', message: TOKEN_MESSAGES.TOKEN_USED });
  });

  it('refuses a tampered, an expired and a malformed token, each with its reason', async () => {
    const account = await signUp();
    const token = tokenOf(await mailTo(account.email, 'Confirm your email address'), '/verify-email');
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const refused = await post('/api/auth/verify-email', { token: tampered });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('TOKEN_INVALID');

    await t.database.pool.query(
      `update account_tokens set expires_at = now() - interval '1 second'
       where user_id = (select id from users where email = $1)`,
      [account.email],
    );
    const expired = await post('/api/auth/verify-email', { token });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ code: 'TOKEN_EXPIRED', message: TOKEN_MESSAGES.TOKEN_EXPIRED });

    const malformed = await post('/api/auth/verify-email', { token: 'not a token!' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toEqual({ token: 'Token is malformed' });
    expect((await currentUser(account.cookie)).json().emailVerified).toBe(false);
  });

  it('does not verify an address the account no longer uses', async () => {
    const account = await signUp();
    const token = tokenOf(await mailTo(account.email, 'Confirm your email address'), '/verify-email');
    await t.database.pool.query(`update users set email = $2 where email = $1`, [
      account.email,
      `moved-${account.email}`,
    ]);
    const response = await post('/api/auth/verify-email', { token });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('This link was for an address your account no longer uses.');
  });

  it('resends the link a few times an hour, only while unverified, only signed in', async () => {
    expect((await post('/api/auth/verify-email/resend')).statusCode).toBe(401);
    const account = await signUp();
    await mailTo(account.email, 'Confirm your email address');
    for (let i = 0; i < 3; i++) {
      const resent = await post('/api/auth/verify-email/resend', undefined, account.cookie);
      expect(resent.statusCode, resent.body).toBe(202);
      expect(resent.json()).toEqual({ message: `We sent a new link to ${account.email}.` });
    }
    const limited = await post('/api/auth/verify-email/resend', undefined, account.cookie);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await smtp.waitFor(() => countTo(account.email, 'Confirm your email address') === 4);

    const latest = smtp.received.filter((m) => m.to === account.email).at(-1);
    if (!latest) throw new Error('no mail');
    expect(
      (await post('/api/auth/verify-email', { token: tokenOf(latest, '/verify-email') })).statusCode,
    ).toBe(200);
    const verified = await signUp();
    await t.database.pool.query(`update users set email_verified_at = now() where email = $1`, [
      verified.email,
    ]);
    const already = await post('/api/auth/verify-email/resend', undefined, verified.cookie);
    expect(already.statusCode).toBe(409);
    expect(already.json().message).toBe('Your email address is already confirmed.');
  });
});

describe('password reset', () => {
  let account: Account;
  beforeEach(async () => {
    account = await signUp();
  });

  const requestReset = (email: string) => post('/api/auth/password-reset/request', { email });
  const signIn = (password: string) => post('/api/auth/signin', { handle: account.handle, password });

  it('answers the same whether or not an account uses the address, and mails only a real one', async () => {
    const known = await requestReset(account.email.toUpperCase());
    const unknown = await requestReset(`nobody-${account.email}`);
    for (const response of [known, unknown]) {
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: PASSWORD_RESET_REQUESTED_MESSAGE });
    }
    expect(known.body).toBe(unknown.body);
    await mailTo(account.email, 'Choose a new password');
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.received.some((m) => m.to === `nobody-${account.email}`)).toBe(false);
  });

  it('sets the new password with the mailed link once, ends every session and signs this browser in', async () => {
    const elsewhere = sessionCookie(await signIn(account.password));
    expect((await requestReset(account.email)).statusCode).toBe(202);
    expect((await requestReset(account.email)).statusCode).toBe(202);
    await smtp.waitFor(() => countTo(account.email, 'Choose a new password') === 2);
    const [first, second] = smtp.received.filter(
      (m) => m.to === account.email && m.subject === 'Choose a new password',
    );
    if (!first || !second) throw new Error('two reset mails expected');
    const token = tokenOf(second, '/reset-password');

    const weak = await post('/api/auth/password-reset', { token, password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().fields)).toEqual(['password']);

    const reset = await post('/api/auth/password-reset', { token, password: 'a brand new passphrase' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().handle).toBe(account.handle);
    expect(reset.json().emailVerified).toBe(true);
    const fresh = sessionCookie(reset);
    expect((await currentUser(fresh)).statusCode).toBe(200);
    for (const ended of [account.cookie, elsewhere]) expect((await currentUser(ended)).statusCode).toBe(401);

    expect((await signIn(account.password)).statusCode).toBe(401);
    expect((await signIn('a brand new passphrase')).statusCode).toBe(200);
    await mailTo(account.email, 'Your password was changed');

    const reused = await post('/api/auth/password-reset', { token, password: 'yet another passphrase' });
    expect(reused.json().code).toBe('TOKEN_USED');
    // The earlier link stopped working with the reset.
    const older = await post('/api/auth/password-reset', {
      token: tokenOf(first, '/reset-password'),
      password: 'yet another passphrase',
    });
    expect(older.statusCode).toBe(400);
    expect(older.json().code).toBe('TOKEN_USED');
  });

  it('limits requests per address', async () => {
    for (let i = 0; i < 3; i++) expect((await requestReset(account.email)).statusCode).toBe(202);
    const limited = await requestReset(account.email);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('mail while SMTP is down', () => {
  it('still signs people up; their link arrives once SMTP is back', async () => {
    await smtp.stop();
    let down = true;
    try {
      const account = await signUp();
      await new Promise((r) => setTimeout(r, 500));
      expect(countTo(account.email, 'Confirm your email address')).toBe(0);
      await smtp.start();
      down = false;
      await t.database.pool.query(`update mail_outbox set next_attempt_at = now() where to_address = $1`, [
        account.email,
      ]);
      await mailTo(account.email, 'Confirm your email address');
    } finally {
      if (down) await smtp.start();
    }
  });
});
