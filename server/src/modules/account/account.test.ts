import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WRONG_PASSWORD_REASON } from '@streamshop/contract/account.ts';
import { TOKEN_MESSAGES } from '@streamshop/contract/account-recovery.ts';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { useMailTestApp } from '../../test/mail-test-app.ts';
import { listProduct, openCheckout, payWithCard } from '../../test/payments.ts';
import { linkIn, type TestSmtpServer } from '../../test/smtp-server.ts';
import { newAccount, sessionCookie, type TestApp } from '../../test/test-app.ts';
import { PASSWORD_CHECK_LIMITS, SUBSCRIPTION_OPEN_MESSAGE } from './service.ts';

/**
 * The settings page's endpoints through HTTP, with the mail read from a real SMTP server and its
 * links followed as the browser would.
 */

let smtp: TestSmtpServer;
let t: TestApp;

useMailTestApp((started) => {
  ({ smtp, t } = started);
});

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let address = 0;
/** Each account from its own client address, so the per-address limits never get in the way. */
const nextAddress = () => {
  address += 1;
  return `10.20.${Math.floor(address / 250)}.${(address % 250) + 1}`;
};

type Account = ReturnType<typeof newAccount> & { cookie: string; id: string; ip: string };

async function signUp(userAgent = CHROME_WINDOWS): Promise<Account> {
  const account = newAccount();
  const ip = nextAddress();
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: account,
    remoteAddress: ip,
    headers: { 'user-agent': userAgent },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { ...account, cookie: sessionCookie(response), id: response.json().id, ip };
}

/** Another browser of the same account. */
async function signIn(account: Account, password = account.password, userAgent = SAFARI_IPHONE) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { handle: account.handle, password },
    remoteAddress: account.ip,
    headers: { 'user-agent': userAgent },
  });
}

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  account?: Account | string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url,
    headers: account ? { cookie: typeof account === 'string' ? account : account.cookie } : {},
    remoteAddress: typeof account === 'object' ? account.ip : '10.99.0.1',
    ...(payload ? { payload } : {}),
  });

/** An image uploaded through the image pipeline by `account`: its URL. */
async function uploadImage(account: Account): Promise<string> {
  const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#a855f7' } })
    .png()
    .toBuffer();
  const boundary = '----avatar';
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/uploads/product-image',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: account.cookie },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  return uploaded.json().url;
}

const me = (cookie: string) => t.app.inject({ url: '/api/auth/user', headers: { cookie } });
const mailTo = (email: string, subject: string) =>
  smtp.waitFor((m) => m.to === email && m.subject === subject);

describe('signed out', () => {
  it.each([
    ['GET', '/api/account'],
    ['PATCH', '/api/account/profile'],
    ['POST', '/api/account/password'],
    ['POST', '/api/account/email'],
    ['GET', '/api/account/sessions'],
    ['POST', '/api/account/sessions/sign-out-others'],
    ['DELETE', '/api/account/sessions/abc'],
    ['GET', '/api/account/export'],
    ['POST', '/api/account/delete'],
  ] as const)('%s %s answers 401 before reading the body', async (method, url) => {
    const response = await call(method, url, undefined, { garbage: true });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('UNAUTHORIZED');
  });
});

describe('profile', () => {
  it('changes the names and business name it is given and answers the user', async () => {
    const account = await signUp();
    const response = await call('PATCH', '/api/account/profile', account, {
      firstName: 'Grace',
      businessName: 'Hopper Records',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Grace',
      lastName: account.lastName,
      businessName: 'Hopper Records',
    });
    expect(response.json()).not.toHaveProperty('passwordHash');
    const cleared = await call('PATCH', '/api/account/profile', account, { businessName: '' });
    expect(cleared.json().businessName).toBeNull();
    expect((await me(account.cookie)).json().firstName).toBe('Grace');
  });

  it.each([
    [{ firstName: '' }, 'firstName', 'First name is required'],
    [{ lastName: 'x'.repeat(81) }, 'lastName', 'Last name must be at most 80 characters'],
    [
      { firstName: 'Bob\u202Eevil' },
      'firstName',
      'First name must not contain text-direction control characters',
    ],
    [{ businessName: 'y'.repeat(121) }, 'businessName', 'Business name must be at most 120 characters'],
    [
      { profileImageUrl: 'https://tracker.example/pixel.png' },
      'profileImageUrl',
      'Profile picture must be an image uploaded here',
    ],
    [{ profileImageUrl: '/api/logout' }, 'profileImageUrl', 'Profile picture must be an image uploaded here'],
  ])('refuses %j with 400 naming the field', async (payload, field, reason) => {
    const account = await signUp();
    const response = await call('PATCH', '/api/account/profile', account, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ [field]: reason });
  });

  it('refuses a field the profile does not have', async () => {
    const account = await signUp();
    const response = await call('PATCH', '/api/account/profile', account, { plan: 'pro' });
    expect(response.statusCode).toBe(400);
    expect((await me(account.cookie)).json().plan).toBe('free');
  });

  it('takes an avatar uploaded through the image pipeline, and removes it', async () => {
    const account = await signUp();
    const url = await uploadImage(account);
    const set = await call('PATCH', '/api/account/profile', account, { profileImageUrl: url });
    expect(set.json().profileImageUrl).toBe(url);
    expect((await t.app.inject({ url })).statusCode).toBe(200);
    const removed = await call('PATCH', '/api/account/profile', account, { profileImageUrl: null });
    expect(removed.json().profileImageUrl).toBeNull();
  });
});

describe('change password', () => {
  const change = (account: Account, currentPassword: string, newPassword: string) =>
    call('POST', '/api/account/password', account, { currentPassword, newPassword });

  it('needs the current password: a wrong one is 400 on currentPassword and changes nothing', async () => {
    const account = await signUp();
    const response = await change(account, 'not my password', 'a brand new password');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ currentPassword: WRONG_PASSWORD_REASON });
    expect((await signIn(account)).statusCode).toBe(200);
  });

  it('applies the sign-up rules to the new password', async () => {
    const account = await signUp();
    const response = await change(account, account.password, 'short');
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ newPassword: 'Password must be at least 8 characters long.' });
  });

  it('changes it, signs out every other session but this one, and mails a notice', async () => {
    const account = await signUp();
    const other = sessionCookie(await signIn(account));
    const response = await change(account, account.password, 'a brand new password');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ otherSessionsEnded: 1 });

    expect((await me(account.cookie)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
    expect((await signIn(account)).statusCode).toBe(401);
    expect((await signIn(account, 'a brand new password')).statusCode).toBe(200);
    const notice = await mailTo(account.email, 'Your password was changed');
    expect(notice.text).toContain('every other device was signed out');
  });

  it('limits wrong current passwords (429 with Retry-After), also for the right one then', async () => {
    const account = await signUp();
    for (let i = 0; i < PASSWORD_CHECK_LIMITS.perAccount; i++) {
      expect((await change(account, `wrong ${i}`, 'a brand new password')).statusCode).toBe(400);
    }
    const limited = await change(account, account.password, 'a brand new password');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('change email', () => {
  const request = (account: Account, email: string, currentPassword = account.password) =>
    call('POST', '/api/account/email', account, { email, currentPassword });
  const confirm = (token: string) => call('POST', '/api/account/email/confirm', undefined, { token });
  const newAddress = () => `new_${Math.random().toString(36).slice(2)}@example.com`;

  it('mails a link to the new address and a notice to the old; nothing changes until it is opened', async () => {
    const account = await signUp();
    const email = newAddress();
    const response = await request(account, email.toUpperCase());
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().email).toBe(email);

    const notice = await mailTo(account.email, 'Your email address is being changed');
    expect(notice.text).toContain(email);
    expect(notice.text).toContain('change your password');
    const mail = await mailTo(email, 'Confirm your new email address');
    const link = linkIn(mail, '/confirm-email');
    expect(link.origin).toBe('http://localhost:3000');
    expect((await me(account.cookie)).json().email).toBe(account.email);

    const confirmed = await confirm(link.searchParams.get('token') ?? '');
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ email });
    expect((await me(account.cookie)).json()).toMatchObject({ email, emailVerified: true });

    const again = await confirm(link.searchParams.get('token') ?? '');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ code: 'TOKEN_USED', message: TOKEN_MESSAGES.TOKEN_USED });
  });

  it('refuses an expired link', async () => {
    const account = await signUp();
    const email = newAddress();
    expect((await request(account, email)).statusCode).toBe(202);
    const token = linkIn(
      await mailTo(email, 'Confirm your new email address'),
      '/confirm-email',
    ).searchParams.get('token');
    await t.database.pool.query(
      `update account_tokens set expires_at = now() - interval '1 second' where user_id = $1 and purpose = 'change_email'`,
      [account.id],
    );
    const expired = await confirm(token ?? '');
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe('TOKEN_EXPIRED');
    expect((await me(account.cookie)).json().email).toBe(account.email);
  });

  it('answers 409 when another account took the address before the link was opened', async () => {
    const account = await signUp();
    const email = newAddress();
    expect((await request(account, email)).statusCode).toBe(202);
    const token = linkIn(
      await mailTo(email, 'Confirm your new email address'),
      '/confirm-email',
    ).searchParams.get('token');
    const quicker = newAccount({ email });
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: quicker,
      remoteAddress: nextAddress(),
    });
    expect(taken.statusCode).toBe(201);
    const response = await confirm(token ?? '');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      code: 'EMAIL_TAKEN',
      fields: { email: 'is already registered' },
    });
    expect((await me(account.cookie)).json().email).toBe(account.email);
  });

  it('refuses a registered address (409), its own address and a wrong password (400), mailing nothing', async () => {
    const account = await signUp();
    const other = await signUp();
    const taken = await request(account, other.email);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'EMAIL_TAKEN', fields: { email: 'is already registered' } });
    const same = await request(account, account.email);
    expect(same.statusCode).toBe(400);
    expect(same.json().fields).toEqual({ email: 'is already your address' });
    const wrong = await request(account, newAddress(), 'not my password');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ currentPassword: WRONG_PASSWORD_REASON });
    const malformed = await request(account, 'not an address');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields).toEqual({ email: 'Please enter a valid email address.' });
    expect(
      smtp.received.some(
        (m) => m.subject === 'Your email address is being changed' && m.to === account.email,
      ),
    ).toBe(false);
  });
});

describe('sessions', () => {
  it('lists the account’s browsers with an opaque id, the device, and which one is this', async () => {
    const account = await signUp(CHROME_WINDOWS);
    await signIn(account, account.password, SAFARI_IPHONE);
    const response = await call('GET', '/api/account/sessions', account);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { sessions } = response.json();
    expect(sessions).toHaveLength(2);
    const current = sessions.find((s: { current: boolean }) => s.current);
    const other = sessions.find((s: { current: boolean }) => !s.current);
    expect(current).toMatchObject({ description: 'Chrome 126 on Windows 10', device: 'desktop' });
    expect(other).toMatchObject({ description: 'Safari 17 on iOS 17', device: 'mobile' });
    const stored = await t.database.pool.query('select id_hash from sessions where user_id = $1', [
      account.id,
    ]);
    const cookieId = account.cookie.split('=')[1] ?? '';
    for (const session of sessions) {
      expect(session.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(stored.rows.map((row) => row.id_hash)).not.toContain(session.id);
      expect(session.id).not.toBe(cookieId);
      expect(Date.parse(session.createdAt)).not.toBeNaN();
      expect(Date.parse(session.lastActiveAt)).not.toBeNaN();
    }
  });

  it('signs out every other session; those get 401 at once', async () => {
    const account = await signUp();
    const phone = sessionCookie(await signIn(account));
    const tablet = sessionCookie(await signIn(account));
    const response = await call('POST', '/api/account/sessions/sign-out-others', account);
    expect(response.json()).toEqual({ ended: 2 });
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(tablet)).statusCode).toBe(401);
    expect((await me(account.cookie)).statusCode).toBe(200);
    expect((await call('GET', '/api/account/sessions', account)).json().sessions).toHaveLength(1);
  });

  it('signs out one session by its id; not this one, not another account’s', async () => {
    const account = await signUp();
    const phone = sessionCookie(await signIn(account));
    const { sessions } = (await call('GET', '/api/account/sessions', account)).json();
    const other = sessions.find((s: { current: boolean }) => !s.current);
    const current = sessions.find((s: { current: boolean }) => s.current);

    const stranger = await signUp();
    expect((await call('DELETE', `/api/account/sessions/${other.id}`, stranger)).statusCode).toBe(404);
    expect((await me(phone)).statusCode).toBe(200);
    const self = await call('DELETE', `/api/account/sessions/${current.id}`, account);
    expect(self.statusCode).toBe(400);

    const ended = await call('DELETE', `/api/account/sessions/${other.id}`, account);
    expect(ended.json()).toEqual({ ended: 1 });
    expect((await me(phone)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/account/sessions/${other.id}`, account)).statusCode).toBe(404);
    expect(
      (await call('DELETE', '/api/account/sessions/not%20an%20id', account)).json().fields,
    ).toHaveProperty('id');
  });
});

/** A completed order: `buyer` paid for a product of `seller`. */
async function sell(seller: Account, buyer: Account, title: string) {
  const product = await listProduct(t, seller.cookie, { title, stock: 2 });
  const checkout = await openCheckout(t.app, buyer.cookie, product.id);
  expect(checkout.statusCode, checkout.body).toBe(200);
  expect((await payWithCard(t.app, checkout.json().clientSecret)).json()).toEqual({ status: 'succeeded' });
  return product;
}

describe('export', () => {
  it('answers every record of the account as an attachment', async () => {
    const seller = await signUp();
    const buyer = await signUp();
    await sell(seller, buyer, 'Exported record player');
    await listProduct(t, seller.cookie, { title: 'Unsold tape deck' });
    const room = await call('POST', '/api/rooms', seller, { title: 'Export night' });
    expect(room.statusCode, room.body).toBe(201);
    await t.database.pool.query(
      `insert into chat_messages (stream_id, user_id, username, message)
       select id, $1, $2, 'hello from the export' from streams where room_name = $3`,
      [seller.id, seller.handle, room.json().roomName],
    );

    const response = await call('GET', '/api/account/export', seller);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="streamshop-${seller.handle}-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
    );
    const data = response.json();
    expect(data.profile).toMatchObject({ handle: seller.handle, email: seller.email });
    expect(data.profile).not.toHaveProperty('passwordHash');
    expect(data.products.map((p: { title: string }) => p.title).sort()).toEqual([
      'Exported record player',
      'Unsold tape deck',
    ]);
    expect(data.streams.map((s: { title: string }) => s.title)).toEqual(['Export night']);
    expect(data.orders).toEqual([
      expect.objectContaining({ role: 'seller', productTitle: 'Exported record player' }),
    ]);
    expect(data.chatMessages).toEqual([
      expect.objectContaining({ roomName: room.json().roomName, message: 'hello from the export' }),
    ]);
    expect(data.subscriptions).toEqual([]);

    const bought = (await call('GET', '/api/account/export', buyer)).json();
    expect(bought.orders).toEqual([
      expect.objectContaining({ role: 'buyer', productTitle: 'Exported record player' }),
    ]);
  });
});

describe('delete account', () => {
  const remove = (account: Account, payload: object) => call('POST', '/api/account/delete', account, payload);

  it('needs the password: a wrong one is 400 on password and deletes nothing', async () => {
    const account = await signUp();
    const wrong = await remove(account, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ password: WRONG_PASSWORD_REASON });
    const missing = await remove(account, {});
    expect(missing.json().fields).toEqual({ password: 'Password is required' });
    expect((await me(account.cookie)).statusCode).toBe(200);
  });

  it('empties the account, keeps the orders for the other party, and refuses its sign-in and storefront', async () => {
    const seller = await signUp();
    const buyer = await signUp();
    const sold = await sell(seller, buyer, 'Kept for the receipt');
    const unsold = await listProduct(t, seller.cookie, { title: 'Never sold' });
    const phone = sessionCookie(await signIn(seller));
    const room = await call('POST', '/api/rooms', seller, { title: 'Goodbye stream' });
    const roomName = room.json().roomName;
    expect((await call('POST', `/api/streams/${roomName}/start`, seller)).statusCode).toBe(200);

    const response = await remove(seller, { password: seller.password });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(response.cookies.find((c) => c.name === 'sid')?.value).toBe('');

    expect((await me(seller.cookie)).statusCode).toBe(401);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await signIn(seller)).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/storefront/${seller.handle}` })).statusCode).toBe(404);

    const row = (
      await t.database.pool.query(
        `select handle, email, first_name, last_name, business_name, password_hash, profile_image_url,
           deleted_at is not null as deleted from users where id = $1`,
        [seller.id],
      )
    ).rows[0];
    expect(row).toMatchObject({
      email: `deleted-${seller.id}@invalid`,
      first_name: 'Deleted user',
      business_name: null,
      password_hash: null,
      profile_image_url: null,
      deleted: true,
    });
    expect(row.handle).toMatch(/^deleted_[0-9a-f]{12}$/);

    const orders = (await call('GET', '/api/orders', buyer)).json();
    expect(orders).toEqual([
      expect.objectContaining({ role: 'buyer', productTitle: 'Kept for the receipt' }),
    ]);
    const kept = await t.database.pool.query('select stock, unlisted_at from products where id = $1', [
      sold.id,
    ]);
    expect(kept.rows[0].stock).toBe(0);
    expect(kept.rows[0].unlisted_at).not.toBeNull();
    expect((await t.database.pool.query('select 1 from products where id = $1', [unsold.id])).rows).toEqual(
      [],
    );
    const explore = (await t.app.inject({ url: '/api/explore?search=receipt' })).json();
    expect(explore.products.map((p: { id: string }) => p.id)).not.toContain(sold.id);

    // The stream ended, and its room is gone with the account.
    const [stream] = (
      await t.database.pool.query(
        'select is_active, ended_at is not null as ended from streams where room_name = $1',
        [roomName],
      )
    ).rows;
    expect(stream).toEqual({ is_active: false, ended: true });
    expect((await t.app.inject({ url: `/api/streams/${roomName}` })).statusCode).toBe(404);
    const farewell = await mailTo(seller.email, 'Your StreamShop account was deleted');
    expect(farewell.text).toContain(`@${seller.handle}`);
  });

  it('takes the rooms with it: their video, replays and thumbnails, the avatar and the deleted products’ images', async () => {
    const seller = await signUp();
    const avatar = await uploadImage(seller);
    expect(
      (await call('PATCH', '/api/account/profile', seller, { profileImageUrl: avatar })).statusCode,
    ).toBe(200);
    const productImage = await uploadImage(seller);
    await listProduct(t, seller.cookie, { title: 'Pictured', imageUrl: productImage });
    const roomName = (await call('POST', '/api/rooms', seller, { title: 'Kept on video' })).json().roomName;
    expect((await call('POST', `/api/streams/${roomName}/start`, seller)).statusCode).toBe(200);
    expect((await call('POST', `/api/streams/${roomName}/end`, seller)).statusCode).toBe(200);
    // What the recorder left of it: a replay and a thumbnail, as stored (the pipeline's own tests make real ones).
    const folder = path.join(t.config.dataDir, 'media', 'hls', roomName);
    mkdirSync(folder, { recursive: true });
    const files = ['index.m3u8', 'part-1.m3u8', 'seg-1-00001.m4s', 'thumb-1.jpg'];
    for (const file of files)
      writeFileSync(path.join(folder, file), file.endsWith('.m3u8') ? '#EXTM3U\n' : 'recorded');
    await t.database.pool.query(
      `update streams set vod_url = $2, thumbnail_url = $3, replay_state = 'ready' where room_name = $1`,
      [roomName, `/media/hls/${roomName}/index.m3u8`, `/media/hls/${roomName}/thumb-1.jpg`],
    );
    const before = (await t.app.inject({ url: `/api/streams/${roomName}` })).json();
    expect(before.vodUrl).toBe(`/media/hls/${roomName}/index.m3u8`);
    for (const url of [before.vodUrl, before.thumbnailUrl, avatar, productImage]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(200);
    }

    expect((await remove(seller, { password: seller.password })).statusCode).toBe(200);

    expect((await t.app.inject({ url: `/api/streams/${roomName}` })).statusCode).toBe(404);
    // Removed by the storage removals worker, kicked by the deletion: within moments, not at its next tick.
    await eventually(
      'the files queued for removal are gone',
      async () =>
        Number((await t.database.pool.query('select count(*) as n from storage_removals')).rows[0]?.n),
      (queued) => queued === 0,
    );
    for (const url of [before.vodUrl, before.thumbnailUrl, avatar, productImage]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
    // No replay is made of it afterwards, by this instance's sweep or another's.
    const [row] = (
      await t.database.pool.query(
        'select vod_url, thumbnail_url, replay_state from streams where room_name = $1',
        [roomName],
      )
    ).rows;
    expect(row).toEqual({ vod_url: null, thumbnail_url: null, replay_state: 'empty' });
  });

  it('confirms an account without a password by its handle', async () => {
    const account = await signUp();
    await t.database.pool.query('update users set password_hash = null where id = $1', [account.id]);
    const overview = (await call('GET', '/api/account', account)).json();
    expect(overview).toEqual({ hasPassword: false, providers: [] });
    const wrong = await remove(account, { handle: 'someone_else' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ handle: 'does not match your handle' });
    const response = await remove(account, { handle: `@${account.handle.toUpperCase()}` });
    expect(response.statusCode, response.body).toBe(200);
    expect((await me(account.cookie)).statusCode).toBe(401);
  });

  it('asks to cancel a renewing Pro subscription first', async () => {
    const account = await signUp();
    await t.database.pool.query(
      `insert into subscriptions (user_id, provider, status, current_period_end)
       values ($1, 'local', 'active', now() + interval '20 days')`,
      [account.id],
    );
    const response = await remove(account, { password: account.password });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(SUBSCRIPTION_OPEN_MESSAGE);
    await t.database.pool.query('update subscriptions set cancel_at_period_end = true where user_id = $1', [
      account.id,
    ]);
    expect((await remove(account, { password: account.password })).statusCode).toBe(200);
  });
});
