import { LEDGER_PAGE_SIZE, type LedgerEntry, type LedgerPage } from '@streamshop/contract/orders.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listProduct, openCheckout, payWithCard } from '../../test/payments.ts';
import { buildTestApp, signUp, type TestApp, unlimited } from '../../test/test-app.ts';

/**
 * GET /api/payouts/ledger pages with a cursor as GET /api/orders does: every entry of the seller
 * once, newest first, however many share a created_at (a sale and its fee are one transaction's).
 */

let t: TestApp;
type Account = Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await buildTestApp(
    { platformFeePercent: 10 },
    { autoEnd: false, paymentJobs: false, rateLimiter: unlimited, localPayouts: { enabled: false } },
  );
});
afterAll(async () => {
  await t?.close();
});

const ledger = (cookie: string | undefined, cursor?: string) =>
  t.app.inject({
    url: `/api/payouts/ledger${cursor === undefined ? '' : `?cursor=${cursor}`}`,
    headers: cookie ? { cookie } : {},
  });

/** Every page, following nextCursor from the first; the page sizes on the way. */
async function walk(cookie: string, from?: string): Promise<{ entries: LedgerEntry[]; sizes: number[] }> {
  const entries: LedgerEntry[] = [];
  const sizes: number[] = [];
  let cursor = from;
  for (let guard = 0; guard < 20; guard++) {
    const response = await ledger(cookie, cursor);
    expect(response.statusCode, response.body).toBe(200);
    const page: LedgerPage = response.json();
    entries.push(...page.entries);
    sizes.push(page.entries.length);
    if (page.nextCursor === null) return { entries, sizes };
    cursor = page.nextCursor;
  }
  throw new Error('the ledger never ended');
}

/** `count` sales of one product to one buyer: a `sale` and a `fee` entry each. */
async function sell(seller: Account, count: number): Promise<void> {
  const buyer = await signUp(t.app);
  const product = await listProduct(t, seller.cookie, { priceCents: 2000, stock: count });
  for (let i = 0; i < count; i++) {
    const checkout = await openCheckout(t.app, buyer.cookie, product.id);
    expect(checkout.statusCode, checkout.body).toBe(200);
    expect((await payWithCard(t.app, checkout.json().clientSecret)).json()).toEqual({ status: 'succeeded' });
  }
}

const idsOf = async (seller: Account): Promise<string[]> =>
  (await t.database.pool.query('select id from ledger_entries where seller_id = $1', [seller.user.id])).rows
    .map((row: { id: string }) => row.id)
    .sort();

describe('GET /api/payouts/ledger', () => {
  it('answers 401 to a signed-out visitor', async () => {
    expect((await ledger(undefined)).statusCode).toBe(401);
  });

  it('walks every entry of the seller once, newest first, only theirs, page after page', async () => {
    const seller = await signUp(t.app);
    const other = await signUp(t.app);
    const sales = Math.ceil(LEDGER_PAGE_SIZE / 2) + 1;
    await sell(seller, sales);
    await sell(other, 2);
    const all = await idsOf(seller);
    expect(all).toHaveLength(sales * 2);

    const check = async () => {
      const { entries, sizes } = await walk(seller.cookie);
      expect(sizes).toEqual([LEDGER_PAGE_SIZE, sales * 2 - LEDGER_PAGE_SIZE]);
      expect(entries.map((entry) => entry.id).sort()).toEqual(all);
      const times = entries.map((entry) => Date.parse(entry.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    };
    // As sold: each sale and its fee share a created_at, to the microsecond.
    await check();
    // Within one millisecond, three entries a microsecond, the first page's last two sharing theirs
    // with the second page's first: the cursor keeps the microseconds and breaks the tie on id.
    await t.database.pool.query(
      `update ledger_entries l
       set created_at = timestamptz '2026-11-26 12:00:00.0005+00' - make_interval(secs => floor((n.j - $2)::numeric / 3) * 0.000001)
       from (select id, row_number() over (order by id desc) - 1 as j from ledger_entries where seller_id = $1) n
       where l.id = n.id`,
      [seller.user.id, LEDGER_PAGE_SIZE - 2],
    );
    await check();

    // The other seller sees only their own two sales, even from the first seller's cursor.
    const first: LedgerPage = (await ledger(seller.cookie)).json();
    expect(first.nextCursor).toEqual(expect.any(String));
    const theirs = await idsOf(other);
    expect((await walk(other.cookie)).entries.map((entry) => entry.id).sort()).toEqual(theirs);
    const fromForeign = (await walk(other.cookie, first.nextCursor ?? '')).entries.map((entry) => entry.id);
    expect(fromForeign.every((id) => theirs.includes(id))).toBe(true);
  });

  it('refuses a cursor this server did not give, with the field', async () => {
    const seller = await signUp(t.app);
    // "nope" in base64url: well formed, not a cursor; then characters base64url never uses.
    for (const cursor of ['bm9wZQ', encodeURIComponent('a+b/c='), 'x'.repeat(201)]) {
      const response = await ledger(seller.cookie, cursor);
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json().fields).toHaveProperty('cursor');
    }
  });
});
