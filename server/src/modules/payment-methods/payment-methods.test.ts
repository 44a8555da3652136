import { randomUUID } from 'node:crypto';
import { MAX_PAYMENT_METHODS } from '@streamshop/contract/payment-methods.ts';
import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalProvider } from '../../platform/payments/local.ts';
import { DECLINE_MESSAGES } from '../../platform/payments/local-cards.ts';
import { DETACHED_CARD_MESSAGE } from '../../platform/payments/local-cards-saved.ts';
import { eventually } from '../../test/eventually.ts';
import { listProduct, openCheckout, payWithCard, TEST_ADDRESS } from '../../test/payments.ts';
import { buildTestApp, signUpFrom, type TestApp } from '../../test/test-app.ts';
import { defaultCardOf, NOT_CONFIRMED_MESSAGE, SETUP_LIMIT, TOO_MANY_CARDS_MESSAGE } from './service.ts';

/** Issue 28: saved cards on the local provider, through the HTTP API (PGlite and PostgreSQL). */

let t: TestApp;
let local: LocalProvider;
beforeAll(async () => {
  t = await buildTestApp();
  local = t.app.payments as LocalProvider;
});
afterAll(async () => {
  await t?.close();
});

type Buyer = { cookie: string; id: string };
const buyer = () => signUpFrom(t.app, '10.28');
const inject = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  cookie?: string,
  payload?: Record<string, unknown>,
) => t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload && { payload }) });
const validCard = (number: string = TEST_CARDS.success, expYear = new Date().getFullYear() + 3) => ({
  number,
  expMonth: 12,
  expYear,
  cvc: '123',
});

const openSetup = (who: Buyer) => inject('POST', '/api/payment-methods/setup', who.cookie);
const confirmSetup = (clientSecret: string, card = validCard()) =>
  inject('POST', '/api/payments/local/setups/confirm', undefined, { clientSecret, card });
const save = (who: Buyer, setupRef: string) =>
  inject('POST', '/api/payment-methods', who.cookie, { setupRef });
const list = async (who: Buyer) => (await inject('GET', '/api/payment-methods', who.cookie)).json();

/** Opens a setup, confirms it with the card, and saves it: the settings page's whole flow. */
async function addCard(who: Buyer, number: string = TEST_CARDS.success) {
  const setup = (await openSetup(who)).json();
  expect((await confirmSetup(setup.clientSecret, validCard(number))).json()).toEqual({ status: 'succeeded' });
  const saved = await save(who, setup.setupRef);
  expect(saved.statusCode).toBe(201);
  return { setupRef: setup.setupRef as string, method: saved.json().paymentMethod };
}

describe('saved cards', () => {
  it('answers 401 on every route when signed out, before looking at the body', async () => {
    expect((await inject('GET', '/api/payment-methods')).statusCode).toBe(401);
    expect((await inject('POST', '/api/payment-methods/setup')).statusCode).toBe(401);
    expect((await inject('POST', '/api/payment-methods', undefined, {})).statusCode).toBe(401);
    expect((await inject('DELETE', '/api/payment-methods/not-an-id')).statusCode).toBe(401);
  });

  it('starts with no cards and no address', async () => {
    const me = await buyer();
    expect(await list(me)).toEqual({ paymentMethods: [], defaultShippingAddress: null });
  });

  it('saves a Visa and a Mastercard; the newest is the default and listed first', async () => {
    const me = await buyer();
    const visa = await addCard(me);
    expect(visa.method).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 12, isDefault: true });
    const mastercard = await addCard(me, TEST_CARDS.successMastercard);
    expect(mastercard.method).toMatchObject({ brand: 'mastercard', last4: '4444', isDefault: true });

    const { paymentMethods } = await list(me);
    expect(paymentMethods.map((m: { id: string; isDefault: boolean }) => [m.id, m.isDefault])).toEqual([
      [mastercard.method.id, true],
      [visa.method.id, false],
    ]);
    const card = await defaultCardOf(t.database.db, me.id, 'local');
    expect(card).toMatchObject({ id: mastercard.method.id, brand: 'mastercard', last4: '4444' });
    expect(card?.methodRef).toMatch(/^lpm_/);
    expect(card?.customerRef).toMatch(/^lcus_/);
  });

  it('keeps one customer per account across setups', async () => {
    const me = await buyer();
    await addCard(me);
    await addCard(me);
    const customers = await t.database.pool.query(
      'select customer_ref from payment_customers where user_id = $1',
      [me.id],
    );
    expect(customers.rows).toHaveLength(1);
    const refs = await t.database.pool.query(
      'select distinct customer_ref from payment_methods where user_id = $1',
      [me.id],
    );
    expect(refs.rows).toEqual(customers.rows);
  });

  it('saves the same setup once, however often it is posted', async () => {
    const me = await buyer();
    const first = await addCard(me);
    const again = await save(me, first.setupRef);
    expect(again.statusCode).toBe(201);
    expect(again.json().paymentMethod.id).toBe(first.method.id);
    expect((await list(me)).paymentMethods).toHaveLength(1);
  });

  it('answers 409 for a setup not confirmed yet, and a declined card leaves it unconfirmed', async () => {
    const me = await buyer();
    const setup = (await openSetup(me)).json();
    expect(setup.setupRef).toMatch(/^lseti_/);
    const declined = await confirmSetup(setup.clientSecret, validCard(TEST_CARDS.declined));
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toEqual({ status: 'failed', message: DECLINE_MESSAGES.declined });
    const early = await save(me, setup.setupRef);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(NOT_CONFIRMED_MESSAGE);
    // The same setup then takes a good card.
    expect((await confirmSetup(setup.clientSecret)).json()).toEqual({ status: 'succeeded' });
    expect((await save(me, setup.setupRef)).statusCode).toBe(201);
  });

  it('refuses an expired card, the 3-D Secure card, and a second confirm of a saved setup', async () => {
    const me = await buyer();
    const setup = (await openSetup(me)).json();
    const expired = await confirmSetup(setup.clientSecret, validCard(TEST_CARDS.success, 2020));
    expect(expired.json()).toEqual({ status: 'failed', message: DECLINE_MESSAGES.pastExpiry });
    const secure = await confirmSetup(setup.clientSecret, validCard(TEST_CARDS.requiresAuthentication));
    expect(secure.json()).toEqual({ status: 'failed', message: DECLINE_MESSAGES.setupNeedsAuthentication });
    expect((await confirmSetup(setup.clientSecret)).statusCode).toBe(200);
    expect((await confirmSetup(setup.clientSecret)).statusCode).toBe(409);
  });

  it('answers 400 with the field for a bad card or body, and 404 for an unknown secret', async () => {
    const me = await buyer();
    const setup = (await openSetup(me)).json();
    const badNumber = await confirmSetup(setup.clientSecret, { ...validCard(), number: '42' });
    expect(badNumber.statusCode).toBe(400);
    expect(badNumber.json().fields).toHaveProperty(['card.number']);
    expect((await confirmSetup('lseti_nope_secret_x')).statusCode).toBe(404);
    const noRef = await inject('POST', '/api/payment-methods', me.cookie, {});
    expect(noRef.statusCode).toBe(400);
    expect(noRef.json().fields).toEqual({ setupRef: 'setupRef is required' });
    expect(
      (await inject('POST', '/api/payment-methods', me.cookie, { setupRef: 'x', extra: 1 })).statusCode,
    ).toBe(400);
    expect((await inject('DELETE', '/api/payment-methods/not-an-id', me.cookie)).statusCode).toBe(400);
  });

  it("answers 404 for another account's setup, and saves nothing for the caller", async () => {
    const owner = await buyer();
    const other = await buyer();
    const { setupRef } = await addCard(owner);
    // With no setup of their own yet, and with one.
    expect((await save(other, setupRef)).statusCode).toBe(404);
    await openSetup(other);
    const stolen = await save(other, setupRef);
    expect(stolen.statusCode).toBe(404);
    expect((await list(other)).paymentMethods).toEqual([]);
    expect((await save(other, 'lseti_unknown')).statusCode).toBe(409);
  });

  it("removes a card (detached at the provider), and answers 404 for another's or a removed one", async () => {
    const me = await buyer();
    const other = await buyer();
    const older = await addCard(me);
    const newer = await addCard(me);
    expect((await inject('DELETE', `/api/payment-methods/${newer.method.id}`, other.cookie)).statusCode).toBe(
      404,
    );
    expect((await list(me)).paymentMethods).toHaveLength(2);

    const removed = await inject('DELETE', `/api/payment-methods/${newer.method.id}`, me.cookie);
    expect(removed.statusCode).toBe(204);
    expect((await inject('DELETE', `/api/payment-methods/${newer.method.id}`, me.cookie)).statusCode).toBe(
      404,
    );
    expect((await inject('DELETE', `/api/payment-methods/${randomUUID()}`, me.cookie)).statusCode).toBe(404);
    // The older card is the default now.
    expect((await list(me)).paymentMethods).toEqual([
      expect.objectContaining({ id: older.method.id, isDefault: true }),
    ]);
    const detached = await t.database.pool.query('select detached_at from local_card_setups where id = $1', [
      newer.setupRef,
    ]);
    expect(detached.rows[0].detached_at).not.toBeNull();
  });

  it(`keeps at most ${MAX_PAYMENT_METHODS} cards: the next setup is 409`, async () => {
    const me = await buyer();
    // A setup opened while there was room, saved once the account is full, is refused too.
    const spare = (await openSetup(me)).json();
    for (let i = 0; i < MAX_PAYMENT_METHODS; i++) await addCard(me);
    const refused = await openSetup(me);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(TOO_MANY_CARDS_MESSAGE);
    await confirmSetup(spare.clientSecret);
    expect((await save(me, spare.setupRef)).statusCode).toBe(409);
    expect((await list(me)).paymentMethods).toHaveLength(MAX_PAYMENT_METHODS);
  });

  it(`limits card setups to ${SETUP_LIMIT.perAccount} an hour per account (429 with Retry-After)`, async () => {
    const me = await buyer();
    for (let i = 0; i < SETUP_LIMIT.perAccount; i++) expect((await openSetup(me)).statusCode).toBe(200);
    const limited = await openSetup(me);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    expect((await openSetup(await buyer())).statusCode).toBe(200);
  });

  it('offers the most recently used saved address as where an auction win ships', async () => {
    const seller = await buyer();
    const me = await buyer();
    const product = await listProduct(t, seller.cookie, { fulfillment: 'ship', shippingCents: 500 });
    const session = await openCheckout(t.app, me.cookie, product.id, { shippingAddress: TEST_ADDRESS });
    expect(session.statusCode).toBe(200);
    expect((await payWithCard(t.app, session.json().clientSecret)).json().status).toBe('succeeded');
    const { defaultShippingAddress } = await list(me);
    expect(defaultShippingAddress).toMatchObject({ name: TEST_ADDRESS.name, line1: TEST_ADDRESS.line1 });
  });
});

describe('charging a saved card off-session (local provider)', () => {
  const charge = (card: { customerRef: string; methodRef: string }, paymentId = randomUUID()) =>
    local.chargeSavedCard({ paymentId, amountCents: 2500, description: 'Auction win', ...card });

  async function savedCardOf(number: string = TEST_CARDS.success) {
    const me = await buyer();
    await addCard(me, number);
    const card = await defaultCardOf(t.database.db, me.id, 'local');
    if (!card) throw new Error('no card saved');
    return card;
  }

  it('charges once per payment id, and tells the webhook the payment succeeded', async () => {
    const card = await savedCardOf();
    const paymentId = randomUUID();
    const first = await charge(card, paymentId);
    expect(first).toEqual({ status: 'succeeded', ref: expect.stringMatching(/^pi_local_/) });
    // A retry (after a crash, say) answers the first outcome and charges nothing more.
    const [again, concurrent] = await Promise.all([charge(card, paymentId), charge(card, paymentId)]);
    expect(again).toEqual(first);
    expect(concurrent).toEqual(first);
    const intents = await t.database.pool.query(
      'select status, amount_cents from local_payment_intents where payment_id = $1',
      [paymentId],
    );
    expect(intents.rows).toEqual([{ status: 'succeeded', amount_cents: 2500 }]);
    // One payment.succeeded event, delivered to the app's webhook like a confirm's.
    const events = await eventually(
      'the payment.succeeded event is delivered',
      async () =>
        (
          await t.database.pool.query(
            `select payload, delivered_at from local_webhook_events where payload::jsonb->>'paymentId' = $1`,
            [paymentId],
          )
        ).rows,
      (rows) => rows.length === 1 && rows[0].delivered_at !== null,
    );
    expect(JSON.parse(events[0].payload)).toMatchObject({
      type: 'payment.succeeded',
      paymentId,
      ref: first.ref,
      amountCents: 2500,
    });
  });

  it('declines every charge of 4000 0000 0000 0341, which saved fine, and again on a retry', async () => {
    const card = await savedCardOf(TEST_CARDS.declineAfterAttach);
    expect(card.last4).toBe('0341');
    const paymentId = randomUUID();
    const declined = await charge(card, paymentId);
    expect(declined).toEqual({
      status: 'declined',
      ref: expect.any(String),
      message: 'Your card was declined.',
    });
    expect(await charge(card, paymentId)).toEqual(declined);
    const events = await t.database.pool.query(
      `select payload from local_webhook_events where payload::jsonb->>'paymentId' = $1`,
      [paymentId],
    );
    expect(events.rows.map((row) => JSON.parse(row.payload).type)).toEqual(['payment.failed']);
  });

  it('declines a removed card, a card of another customer, and an expired card', async () => {
    const card = await savedCardOf();
    await local.detachCard(card.methodRef);
    expect(await charge(card)).toMatchObject({ status: 'declined', message: DETACHED_CARD_MESSAGE });

    const other = await savedCardOf();
    expect(await charge({ ...other, customerRef: 'lcus_someone_else' })).toMatchObject({
      status: 'declined',
    });

    const expiring = await savedCardOf();
    await t.database.pool.query('update local_card_setups set exp_year = 2020 where method_ref = $1', [
      expiring.methodRef,
    ]);
    expect(await charge(expiring)).toMatchObject({
      status: 'declined',
      message: DECLINE_MESSAGES.expiredCard,
    });
  });
});
