import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { type PaymentEvent, WebhookSignatureError } from './provider.ts';

/** The header the local provider signs its webhooks with: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const LOCAL_SIGNATURE_HEADER = 'x-local-signature';
/** Signatures older than this are refused, so a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SEC = 300;

function hmac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

export function signLocalPayload(secret: string, body: string, now = new Date()): string {
  const timestamp = Math.floor(now.getTime() / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/** Checks the signature header against the raw body; throws WebhookSignatureError when it does not match. */
export function verifyLocalSignature(secret: string, body: string, header: unknown, now = new Date()): void {
  if (typeof header !== 'string') throw new WebhookSignatureError(`Missing ${LOCAL_SIGNATURE_HEADER} header`);
  const parts = new Map(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1') ?? '';
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(given)) {
    throw new WebhookSignatureError('Malformed signature header');
  }
  if (Math.abs(now.getTime() / 1000 - timestamp) > SIGNATURE_TOLERANCE_SEC) {
    throw new WebhookSignatureError('Signature timestamp is outside the tolerance');
  }
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) {
    throw new WebhookSignatureError('Signature does not match the body');
  }
}

const date = z.iso.datetime().transform((value) => new Date(value));

/** The local provider's wire format: a PaymentEvent with ISO dates. */
const localEventSchema = z.intersection(
  z.object({ id: z.string().min(1), createdAt: date }),
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('payment.succeeded'),
      paymentId: z.string(),
      ref: z.string(),
      amountCents: z.number().int(),
    }),
    z.object({
      type: z.literal('payment.failed'),
      paymentId: z.string(),
      ref: z.string(),
      message: z.string(),
    }),
    z.object({
      type: z.literal('subscription.paid'),
      subscriptionRef: z.string(),
      // Events queued before invoices were named: the event is the invoice.
      invoiceRef: z.string().min(1).optional(),
      periodEnd: date,
    }),
    z.object({
      type: z.literal('subscription.updated'),
      subscriptionRef: z.string(),
      periodEnd: date.nullable(),
      cancelAtPeriodEnd: z.boolean(),
    }),
    z.object({ type: z.literal('subscription.ended'), subscriptionRef: z.string() }),
    z.object({ type: z.literal('ignored'), providerType: z.string() }),
  ]),
);

export function parseLocalEvent(body: string): PaymentEvent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new WebhookSignatureError('The event is not JSON');
  }
  const parsed = localEventSchema.safeParse(json);
  if (!parsed.success) throw new WebhookSignatureError('The event does not have the expected shape');
  const event = parsed.data;
  if (event.type === 'subscription.paid') return { ...event, invoiceRef: event.invoiceRef ?? event.id };
  return event as PaymentEvent;
}
