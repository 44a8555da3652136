/** After the cancels-and-refunds run, through the API: the product's stock, the seller's sales of it, the balance and the ledger. */
import type { Account, Client } from '../support.ts';

const MAX_PAGES = 200;

export interface SaleViaApi {
  id: string;
  status: string;
  amountCents: number;
  shippingCents: number;
  buyerHandle: string;
  hasAddress: boolean;
}

export async function cancelsThroughApi(api: Client, seller: Account, productId: string) {
  const errors: string[] = [];
  const product = await api.request('GET', `/api/products/${productId}`);
  if (product.status !== 200) errors.push(`GET product ${product.status}`);

  // Every sale of the seller, page by page (newest first), kept when it is of this product.
  const sales: SaleViaApi[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const reply = await api.request(
      'GET',
      `/api/orders?role=seller${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { cookie: seller.cookie },
    );
    if (reply.status !== 200 || !Array.isArray(reply.body?.orders)) {
      errors.push(`GET /api/orders?role=seller ${reply.status}`);
      break;
    }
    for (const o of reply.body.orders as Array<
      Omit<SaleViaApi, 'hasAddress'> & { item: { productId: string | null }; shippingAddress: unknown }
    >)
      if (o.item.productId === productId)
        sales.push({
          id: o.id,
          status: o.status,
          amountCents: o.amountCents,
          shippingCents: o.shippingCents,
          buyerHandle: o.buyerHandle,
          hasAddress: o.shippingAddress !== null,
        });
    cursor = reply.body.nextCursor ?? null;
    if (!cursor) break;
  }

  const balance = await api.request('GET', '/api/payouts/balance', { cookie: seller.cookie });
  if (balance.status !== 200) errors.push(`GET /api/payouts/balance ${balance.status}`);
  // Every ledger entry, page by page (newest first).
  const entries: Array<{ kind: string; amountCents: number; orderId: string | null }> = [];
  let ledgerComplete = false;
  let ledgerCursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const ledger = await api.request(
      'GET',
      `/api/payouts/ledger${ledgerCursor ? `?cursor=${encodeURIComponent(ledgerCursor)}` : ''}`,
      { cookie: seller.cookie },
    );
    if (ledger.status !== 200 || !Array.isArray(ledger.body?.entries)) {
      errors.push(`GET /api/payouts/ledger ${ledger.status}`);
      break;
    }
    entries.push(...ledger.body.entries);
    ledgerCursor = ledger.body.nextCursor ?? null;
    if (!ledgerCursor) {
      ledgerComplete = true;
      break;
    }
  }
  return {
    stock: Number(product.body?.stock),
    sales,
    balance: balance.body as {
      grossCents: number;
      feeCents: number;
      netCents: number;
      pendingCents: number;
      availableCents: number;
      paidOutCents: number;
    },
    ledgerEntries: entries,
    /** Every page of the ledger was read. */
    ledgerComplete,
    errors,
  };
}

export type CancelsViaApi = Awaited<ReturnType<typeof cancelsThroughApi>>;
