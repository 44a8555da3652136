import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import type { FastifyInstance } from 'fastify';
import { newAccount, sessionCookie, type TestApp } from './test-app.ts';

/** A category to put test products in; created once per database. */
export async function ensureCategory(t: TestApp): Promise<number> {
  const result = await t.database.pool.query(
    `insert into categories (name, slug) values ('Test goods', 'test-goods')
     on conflict (slug) do update set name = excluded.name returning id`,
  );
  return result.rows[0].id;
}

/**
 * A product listed by the seller through the public API. Digital unless told otherwise, so a
 * checkout needs no address; tests of shipping pass `fulfillment: 'ship'`.
 */
export async function listProduct(
  t: TestApp,
  sellerCookie: string,
  overrides: {
    priceCents?: number;
    stock?: number;
    title?: string;
    fulfillment?: 'ship' | 'digital' | 'pickup';
    shippingCents?: number;
    imageUrl?: string;
  } = {},
): Promise<{ id: string; priceCents: number; stock: number; shippingCents: number }> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/products',
    headers: { cookie: sellerCookie },
    payload: {
      title: overrides.title ?? 'Blue Note first pressing',
      description: 'Plays clean.',
      priceCents: overrides.priceCents ?? 4500,
      condition: 'used',
      categoryId: await ensureCategory(t),
      stock: overrides.stock ?? 1,
      fulfillment: overrides.fulfillment ?? 'digital',
      shippingCents: overrides.shippingCents ?? 0,
      ...(overrides.imageUrl && { imageUrl: overrides.imageUrl }),
    },
  });
  if (response.statusCode !== 201) throw new Error(`listing failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

export const openCheckout = (
  app: FastifyInstance,
  cookie: string | undefined,
  productId: string,
  body?: Record<string, unknown>,
) =>
  app.inject({
    method: 'POST',
    url: `/api/checkout/${productId}`,
    headers: cookie ? { cookie } : {},
    ...(body ? { payload: body } : {}),
  });

/** A valid address to ship to. */
export const TEST_ADDRESS = {
  name: 'Ada Buyer',
  line1: '1 Record Lane',
  city: 'Bristol',
  postalCode: 'BS1 4DJ',
  country: 'GB',
} as const;

/** Submits the local provider's card form, as the buyer's browser does. */
export const payWithCard = (
  app: FastifyInstance,
  clientSecret: string,
  number: string = TEST_CARDS.success,
) =>
  app.inject({
    method: 'POST',
    url: '/api/payments/local/confirm',
    payload: {
      clientSecret,
      card: { number, expMonth: 12, expYear: new Date().getFullYear() + 3, cvc: '123' },
    },
  });

export const ordersOf = async (app: FastifyInstance, cookie: string) =>
  (await app.inject({ method: 'GET', url: '/api/orders', headers: { cookie } })).json() as {
    id: string;
    amountCents: number;
    role: 'buyer' | 'seller';
    productTitle: string | null;
  }[];

export async function stockOf(t: TestApp, productId: string): Promise<number | undefined> {
  const result = await t.database.pool.query('select stock from products where id = $1', [productId]);
  return result.rows[0]?.stock;
}

/** Many fresh buyers at once, each signing up from its own address so the sign-up limit per IP allows it. */
export async function signUpMany(t: TestApp, count: number): Promise<{ cookie: string }[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const account = newAccount();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: account,
        remoteAddress: `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}`,
      });
      if (response.statusCode !== 201)
        throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
      return { cookie: sessionCookie(response) };
    }),
  );
}
