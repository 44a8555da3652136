/** Accounts and products through the API: sign-up (per-address limits honoured), listings, a category; the test card, failed purchases said. */
import { runPool } from './helpers.ts';
import type { Client, Reply } from './http-client.ts';
import { type Storage, withDatabase } from './storage.ts';

export const PASSWORD = 'bench-password-123';
/** The local provider's card that always succeeds (TEST_CARDS.success). */
export const SUCCESS_CARD = '4242424242424242';
/**
 * Accounts behind one X-Forwarded-For address: at most the sign-up limit per address (20 an hour)
 * and the open checkout holds per address (MAX_HOLDS_PER_ADDRESS, 10, in
 * server/src/modules/checkout/checkout.ts), since a burst may have every account of an address
 * holding a unit at once. Each account's checkouts then come from its own address too.
 */
const ACCOUNTS_PER_ADDRESS = 10;

export const card = () => ({
  number: SUCCESS_CARD,
  expMonth: 12,
  expYear: new Date().getFullYear() + 3,
  cvc: '123',
});

export interface Account {
  handle: string;
  cookie: string;
  /** The X-Forwarded-For address it signed up from; send it on its checkouts (holds per address). */
  address: string;
}

export function sidCookie(reply: Reply): string {
  const sid = reply.setCookies.map((c) => c.split(';')[0] ?? '').find((c) => c.startsWith('sid='));
  if (!sid) throw new Error(`no session cookie (status ${reply.status}: ${JSON.stringify(reply.body)})`);
  return sid;
}

/**
 * Signs up one account per handle through the real route (argon2 included), `concurrency` at a
 * time; the first gets a business name (the seller). Sign-up allows 20 accounts per client address
 * per hour and checkout 10 open holds per address, so each batch of ACCOUNTS_PER_ADDRESS (10) comes
 * with its own X-Forwarded-For address 10.<octet>.x.y (the server must trust the proxy), kept in
 * the account for its checkouts: the limits apply exactly as to real clients. With Redis the
 * sign-up limit outlives the run, so such runs pass a fresh `octet`.
 */
export async function signUpAll(
  api: Client,
  handles: string[],
  options: { concurrency?: number; octet?: number; businessName?: string; signal?: AbortSignal } = {},
): Promise<Account[]> {
  const octet = options.octet ?? 77;
  return runPool(handles.length, options.concurrency ?? 8, async (i) => {
    options.signal?.throwIfAborted();
    const handle = handles[i] as string;
    const block = Math.floor(i / ACCOUNTS_PER_ADDRESS);
    const address = `10.${octet}.${Math.floor(block / 250)}.${(block % 250) + 1}`;
    const reply = await api.request('POST', '/api/auth/signup', {
      body: {
        firstName: 'Bench',
        lastName: `Account ${i}`,
        handle,
        email: `${handle}@example.com`,
        password: PASSWORD,
        ...(i === 0 && options.businessName ? { businessName: options.businessName } : {}),
      },
      forwardedFor: address,
    });
    if (reply.status !== 201)
      throw new Error(`sign-up ${handle}: ${reply.status} ${reply.error ?? JSON.stringify(reply.body)}`);
    return { handle, cookie: sidCookie(reply), address };
  });
}

/** Lists a product through POST /api/products; answers its id. */
export async function listProduct(
  api: Client,
  seller: Account,
  product: {
    categoryId: number;
    title: string;
    stock: number;
    priceCents?: number;
    description?: string;
    /** The server's default is ship, whose checkouts need a shipping address. */
    fulfillment?: 'ship' | 'digital' | 'pickup';
    shippingCents?: number;
  },
): Promise<string> {
  const reply = await api.request('POST', '/api/products', {
    cookie: seller.cookie,
    body: {
      title: product.title,
      description: product.description ?? 'One drop, many buyers.',
      priceCents: product.priceCents ?? 4500,
      condition: 'new',
      categoryId: product.categoryId,
      stock: product.stock,
      ...(product.fulfillment ? { fulfillment: product.fulfillment } : {}),
      ...(product.shippingCents !== undefined ? { shippingCents: product.shippingCents } : {}),
    },
  });
  if (reply.status !== 201) throw new Error(`listing: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.id as string;
}

/** Where a bench buyer's shipped purchases go: one of a few addresses, so saved addresses dedupe. */
export function shippingAddressOf(index: number) {
  return {
    name: `Bench Buyer ${index}`,
    line1: `${(index % 7) + 1} Drop Street`,
    city: 'Bristol',
    postalCode: 'BS1 4DJ',
    country: 'GB',
  };
}

/** Inserts one category (there is no API for categories); on PGlite before the server starts. */
export async function insertCategory(storage: Storage, name: string, slug: string): Promise<number> {
  return withDatabase(storage, async (query) => {
    const [row] = await query<{ id: number }>(
      'insert into categories (name, slug) values ($1, $2) returning id',
      [name, slug],
    );
    if (!row) throw new Error('no category inserted');
    return row.id;
  });
}

/** Prints the first three purchases whose checkout or payment went wrong, as they came back. */
export function warnFailedPurchases(
  failed: Array<{ buyer: number; checkout: unknown; confirm?: unknown }>,
): void {
  for (const p of failed.slice(0, 3))
    console.warn(`  !! buyer ${p.buyer}: ${JSON.stringify({ checkout: p.checkout, confirm: p.confirm })}`);
}
