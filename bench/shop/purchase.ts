/** A buyer's purchase through the API: open checkout from the room, then pay with 4242. */
import { type Account, type Client, card, wallMs } from '../support.ts';

export interface Purchase {
  buyer: number;
  startedAt: number;
  checkout: { status: number; ms: number; code?: string; amountCents?: number; error?: string };
  clientSecret?: string;
  confirm?: { status: number; ms: number; outcome?: string; error?: string };
  /** wallMs when the confirm was sent (the buyer pressed Pay). */
  confirmSentAt?: number;
  /** wallMs when the confirm answered 'succeeded'. */
  confirmedAt?: number;
}

export async function purchase(
  api: Client,
  buyer: Account,
  index: number,
  productId: string,
  roomName: string,
) {
  const result: Purchase = { buyer: index, startedAt: wallMs(), checkout: { status: 0, ms: 0 } };
  // From the buyer's own address, as a real client: open holds are capped per address.
  const opened = await api.request('POST', `/api/checkout/${productId}`, {
    cookie: buyer.cookie,
    body: { roomName },
    forwardedFor: buyer.address,
  });
  result.checkout = {
    status: opened.status,
    ms: opened.ms,
    ...(typeof opened.body?.code === 'string' ? { code: opened.body.code } : {}),
    ...(typeof opened.body?.amountCents === 'number' ? { amountCents: opened.body.amountCents } : {}),
    ...(opened.error ? { error: opened.error } : {}),
  };
  if (opened.status !== 200 || typeof opened.body?.clientSecret !== 'string') return result;
  result.clientSecret = opened.body.clientSecret;
  result.confirmSentAt = wallMs();
  const paid = await api.request('POST', '/api/payments/local/confirm', {
    cookie: buyer.cookie,
    body: { clientSecret: opened.body.clientSecret, card: card() },
  });
  const answeredAt = wallMs();
  result.confirm = {
    status: paid.status,
    ms: paid.ms,
    ...(typeof paid.body?.status === 'string' ? { outcome: paid.body.status } : {}),
    ...(paid.error ? { error: paid.error } : {}),
  };
  if (paid.status === 200 && paid.body?.status === 'succeeded') result.confirmedAt = answeredAt;
  return result;
}
