import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/eventually.ts';
import { ensureCategory, listProduct, openCheckout, payWithCard } from '../../test/payments.ts';
import { buildTestApp, signUpFrom, type TestApp } from '../../test/test-app.ts';

/**
 * An uploaded image belongs to the account that uploaded it: only that account may use it as its
 * profile picture or a product's image, and deleting an account removes the uploads it owns, never
 * another account's (however its profile or products named them).
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { autoEnd: false, paymentJobs: false });
});
afterAll(() => t.close());

const NOT_YOURS = 'is not an image you uploaded';

type Account = Awaited<ReturnType<typeof signUpFrom>>;

/** Each account from its own client address, so the per-address limits never get in the way. */
const signUp = () => signUpFrom(t.app, '10.31');

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, account: Account, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: account.cookie },
    remoteAddress: account.ip,
    ...(payload ? { payload } : {}),
  });

async function upload(account: Account): Promise<string> {
  const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: '#0ea5e9' } })
    .png()
    .toBuffer();
  const boundary = '----ownership';
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/uploads/product-image',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: account.cookie },
    remoteAddress: account.ip,
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  return uploaded.json().url;
}

const served = async (url: string) => (await t.app.inject({ url })).statusCode;
const setAvatar = (account: Account, profileImageUrl: string | null) =>
  call('PATCH', '/api/account/profile', account, { profileImageUrl });
const product = async (imageUrl: string | null) => ({
  title: 'Ownership test pressing',
  priceCents: 1500,
  condition: 'used',
  categoryId: await ensureCategory(t),
  fulfillment: 'digital',
  imageUrl,
});
const createProduct = async (account: Account, imageUrl: string | null) =>
  call('POST', '/api/products', account, await product(imageUrl));
const updateProduct = async (account: Account, id: string, imageUrl: string | null) =>
  call('PUT', `/api/products/${id}`, account, await product(imageUrl));
const deleteAccount = (account: Account) =>
  call('POST', '/api/account/delete', account, { password: account.password });

/** The storage removals worker (kicked by the deletion) has taken out everything queued. */
const removalsDone = () =>
  eventually(
    'the files queued for removal are gone',
    async () =>
      Number((await t.database.pool.query('select count(*) as n from storage_removals')).rows[0]?.n),
    (queued) => queued === 0,
  );

describe('an uploaded image is its uploader’s', () => {
  it('refuses another account’s upload as a profile picture, and takes the uploader’s own', async () => {
    const victim = await signUp();
    const attacker = await signUp();
    const image = await upload(victim);

    const stolen = await setAvatar(attacker, image);
    expect(stolen.statusCode, stolen.body).toBe(400);
    expect(stolen.json().fields).toEqual({ profileImageUrl: NOT_YOURS });
    expect(
      (await t.app.inject({ url: '/api/auth/user', headers: { cookie: attacker.cookie } })).json(),
    ).toMatchObject({ profileImageUrl: null });

    const own = await setAvatar(victim, image);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().profileImageUrl).toBe(image);
  });

  it('refuses another account’s upload as a product image, on create and on update', async () => {
    const victim = await signUp();
    const attacker = await signUp();
    const image = await upload(victim);

    for (const url of [image, `http://localhost:3000${image}`]) {
      const created = await createProduct(attacker, url);
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json().fields).toEqual({ imageUrl: NOT_YOURS });
    }

    const attackersOwn = await upload(attacker);
    const listed = await createProduct(attacker, attackersOwn);
    expect(listed.statusCode, listed.body).toBe(201);
    const updated = await updateProduct(attacker, listed.json().id, image);
    expect(updated.statusCode, updated.body).toBe(400);
    expect(updated.json().fields).toEqual({ imageUrl: NOT_YOURS });
    expect((await t.app.inject({ url: `/api/products/${listed.json().id}` })).json().imageUrl).toBe(
      attackersOwn,
    );

    // The other kinds of image stay allowed: a demo drawing, an image elsewhere, none.
    for (const url of ['/media/seed/products/12.svg', 'https://images.example.com/record.jpg', null]) {
      const other = await updateProduct(attacker, listed.json().id, url);
      expect(other.statusCode, `${url}: ${other.body}`).toBe(200);
    }

    const victimsProduct = await createProduct(victim, image);
    expect(victimsProduct.statusCode, victimsProduct.body).toBe(201);
    const victimsUpdate = await updateProduct(victim, victimsProduct.json().id, image);
    expect(victimsUpdate.statusCode, victimsUpdate.body).toBe(200);
    expect(victimsUpdate.json().imageUrl).toBe(image);
  });
});

describe('deleting an account', () => {
  it('leaves alone another account’s uploads its profile and products named', async () => {
    const victim = await signUp();
    const attacker = await signUp();
    const avatar = await upload(victim);
    const pictured = await upload(victim);
    expect((await setAvatar(victim, avatar)).statusCode).toBe(200);
    await listProduct(t, victim.cookie, { title: 'The victim’s own', imageUrl: pictured });
    // References written before uploads had owners (the API refuses them now).
    const mine = await listProduct(t, attacker.cookie, { title: 'Borrowed picture' });
    await t.database.pool.query('update users set profile_image_url = $2 where id = $1', [
      attacker.id,
      avatar,
    ]);
    await t.database.pool.query('update products set image_url = $2 where id = $1', [mine.id, pictured]);

    const deleted = await deleteAccount(attacker);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await removalsDone();
    expect(await served(avatar)).toBe(200);
    expect(await served(pictured)).toBe(200);
  });

  it('removes every upload it owns, but the image of a product an order keeps', async () => {
    const seller = await signUp();
    const buyer = await signUp();
    const avatar = await upload(seller);
    const unsoldImage = await upload(seller);
    const soldImage = await upload(seller);
    const neverUsed = await upload(seller);
    const buyersOwn = await upload(buyer);
    expect((await setAvatar(seller, avatar)).statusCode).toBe(200);
    expect((await setAvatar(buyer, buyersOwn)).statusCode).toBe(200);
    await listProduct(t, seller.cookie, { title: 'Never sold', imageUrl: unsoldImage });
    const sold = await listProduct(t, seller.cookie, { title: 'Sold once', imageUrl: soldImage, stock: 2 });
    const checkout = await openCheckout(t.app, buyer.cookie, sold.id);
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect((await payWithCard(t.app, checkout.json().clientSecret)).json()).toEqual({ status: 'succeeded' });
    for (const url of [avatar, unsoldImage, soldImage, neverUsed, buyersOwn])
      expect(await served(url)).toBe(200);

    const deleted = await deleteAccount(seller);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await removalsDone();
    for (const url of [avatar, unsoldImage, neverUsed]) expect(await served(url), url).toBe(404);
    // The order still shows its product, with its picture; the buyer's own upload is theirs.
    expect(await served(soldImage)).toBe(200);
    expect(await served(buyersOwn)).toBe(200);
  });
});
