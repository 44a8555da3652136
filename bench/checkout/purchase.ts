/** A buyer's purchase through the API: open checkout, then pay with 4242. */
import { type Account, type Client, card, shippingAddressOf } from '../support.ts';

export interface Purchase {
  buyer: number;
  /** performance.now() at the start of the purchase. */
  startedAt: number;
  checkout: { status: number; ms: number; endedAt: number; error?: string; code?: string };
  clientSecret?: string;
  /** What the session said the buyer pays: the total and the shipping in it. */
  session?: { amountCents: number; shippingCents: number; subtotalCents: number };
  confirm?: { status: number; ms: number; endedAt: number; outcome?: string; error?: string };
  /** Open checkout → payment answered, for purchases whose payment succeeded. */
  totalMs?: number;
}

export async function purchase(
  api: Client,
  buyer: Account,
  index: number,
  productId: string,
): Promise<Purchase> {
  const startedAt = performance.now();
  // From the buyer's own address, as a real client: open holds are capped per address.
  const opened = await api.request('POST', `/api/checkout/${productId}`, {
    cookie: buyer.cookie,
    body: { shippingAddress: shippingAddressOf(index) },
    forwardedFor: buyer.address,
  });
  const result: Purchase = {
    buyer: index,
    startedAt,
    checkout: {
      status: opened.status,
      ms: opened.ms,
      endedAt: performance.now(),
      ...(opened.error ? { error: opened.error } : {}),
      ...(typeof opened.body?.code === 'string' ? { code: opened.body.code } : {}),
    },
  };
  if (opened.status !== 200 || typeof opened.body?.clientSecret !== 'string') return result;
  result.clientSecret = opened.body.clientSecret;
  result.session = {
    amountCents: Number(opened.body.amountCents),
    shippingCents: Number(opened.body.shippingCents),
    subtotalCents: Number(opened.body.subtotalCents),
  };
  const paid = await api.request('POST', '/api/payments/local/confirm', {
    cookie: buyer.cookie,
    body: { clientSecret: opened.body.clientSecret, card: card() },
  });
  const endedAt = performance.now();
  result.confirm = {
    status: paid.status,
    ms: paid.ms,
    endedAt,
    ...(typeof paid.body?.status === 'string' ? { outcome: paid.body.status } : {}),
    ...(paid.error ? { error: paid.error } : {}),
  };
  if (paid.status === 200 && paid.body?.status === 'succeeded') result.totalMs = endedAt - startedAt;
  return result;
}
