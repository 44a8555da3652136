/** A buyer's purchase through the API: open checkout, then pay with 4242. */
import { type Account, type Client, card } from '../support.ts';

export interface Purchase {
  buyer: number;
  /** performance.now() at the start of the purchase. */
  startedAt: number;
  checkout: { status: number; ms: number; endedAt: number; error?: string; code?: string };
  clientSecret?: string;
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
