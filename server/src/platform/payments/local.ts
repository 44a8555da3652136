import { randomBytes } from 'node:crypto';
import type { LocalHostedPayment, LocalPaymentResult } from '@streamshop/contract/payments.ts';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, notFound } from '../errors.ts';
import { holdLeases, LEASE_SEC } from '../leases.ts';
import { type Card, DECLINE_MESSAGES, decideCard } from './local-cards.ts';
import { type LocalSavedCards, localSavedCards } from './local-cards-saved.ts';
import {
  LOCAL_SIGNATURE_HEADER,
  parseLocalEvent,
  signLocalPayload,
  verifyLocalSignature,
} from './local-signature.ts';
import {
  activateSubscription,
  claimDueEvents,
  endSubscription,
  extendSubscription,
  type IntentRow,
  insertIntent,
  insertSubscription,
  insertWebhookEvent,
  intentById,
  intentBySecretForUpdate,
  intentOfPayment,
  lockActiveSubscription,
  markCancelAtPeriodEnd,
  markDelivered,
  refundIntentsOfSubscription,
  renewEventClaims,
  scheduleRetry,
  setHostedPage,
  setIntentStatus,
  subscriptionsDue,
} from './local-store.ts';
import type { PaymentEvent, PaymentProvider } from './provider.ts';

type EventBody = PaymentEvent extends infer E
  ? E extends PaymentEvent
    ? Omit<E, 'id' | 'createdAt'>
    : never
  : never;

/** Posts one signed event to the webhook endpoint and answers the HTTP status. */
export type WebhookSender = (body: string, headers: Record<string, string>) => Promise<number>;

const SUBSCRIPTION_PERIOD_MONTHS = 1;
const MAX_DELIVERY_BATCH = 50;
/** The job leaves events younger than this to the request that wrote them. */
const FRESH_EVENT_SEC = 5;

const token = (bytes = 12) => randomBytes(bytes).toString('hex');

function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

export interface LocalProvider extends PaymentProvider {
  readonly name: 'local';
  /** The buyer submitted the card form of a setup (saving a card). */
  confirmSetup: LocalSavedCards['confirmSetup'];
  /** The buyer submitted the card form. */
  confirm(clientSecret: string, card: Card): Promise<LocalPaymentResult>;
  /** The buyer finished (or failed) the extra confirmation step of card 4000 0025 0000 3155. */
  authenticate(clientSecret: string, approve: boolean): Promise<LocalPaymentResult>;
  /** What the hosted payment page shows for a payment opened by createHostedPayment. */
  hostedPayment(id: string): Promise<LocalHostedPayment>;
  /** Where events go; set once the webhook route exists. Without it events wait in the outbox. */
  attachWebhook(send: WebhookSender | undefined): void;
  /** Delivers every due event (or only those of `only`), oldest first; answers how many were accepted. */
  deliverDue(only?: string[]): Promise<number>;
  /** Charges the saved card of subscriptions whose period ended, or ends the cancelled ones. */
  renewDue(now?: Date): Promise<number>;
  /** Signs a body as the provider does (tests replay and reorder events with it). */
  sign(body: string): string;
}

/**
 * The product's own payment provider: it keeps intents, subscriptions and an outbox of webhook
 * events in its own tables, decides cards by the common test-card numbers, and reports outcomes
 * only through signed webhooks to the same endpoint a real provider calls. Its outbox is retried
 * until the endpoint accepts, so a crash between payment and webhook loses nothing.
 */
export function localProvider(
  db: Db,
  options: {
    webhookSecret: string;
    publicUrl: string;
    now?: () => Date;
    /** A lease renewal failed (the database did not answer); the delivery goes on. */
    onLeaseError?: (error: unknown) => void;
  },
): LocalProvider {
  const now = options.now ?? (() => new Date());
  let send: WebhookSender | undefined;

  /** The events each open transaction wrote, so its caller delivers just those at once. */
  const written = new WeakMap<Tx, string[]>();

  async function enqueue(tx: Tx, event: EventBody) {
    const id = `evt_local_${token()}`;
    written.get(tx)?.push(id);
    const payload = JSON.stringify({ ...event, id, createdAt: now().toISOString() });
    await insertWebhookEvent(tx, id, payload);
  }

  async function intentBySecret(tx: Tx, clientSecret: string) {
    const intent = await intentBySecretForUpdate(tx, clientSecret);
    if (!intent) throw notFound('No payment matches this client secret');
    if (intent.status === 'succeeded' || intent.status === 'refunded') {
      throw conflict('CONFLICT', 'This payment is already complete.');
    }
    if (intent.status === 'canceled') {
      throw conflict('CONFLICT', 'This payment session has expired. Start the checkout again.');
    }
    return intent;
  }

  async function fail(tx: Tx, intent: IntentRow, message: string) {
    await setIntentStatus(tx, intent.id, {
      status: 'requires_payment_method',
      lastError: message,
      at: now(),
    });
    if (intent.paymentId) {
      await enqueue(tx, { type: 'payment.failed', paymentId: intent.paymentId, ref: intent.id, message });
    }
    return { status: 'failed', message } as const;
  }

  async function succeed(tx: Tx, intent: IntentRow, last4: string | null) {
    await setIntentStatus(tx, intent.id, {
      status: 'succeeded',
      cardLast4: last4,
      lastError: null,
      at: now(),
    });
    if (intent.paymentId) {
      await enqueue(tx, {
        type: 'payment.succeeded',
        paymentId: intent.paymentId,
        ref: intent.id,
        amountCents: intent.amountCents,
      });
    }
    if (intent.subscriptionId) {
      const periodEnd = addMonths(now(), SUBSCRIPTION_PERIOD_MONTHS);
      await activateSubscription(tx, intent.subscriptionId, periodEnd, last4);
      await enqueue(tx, {
        type: 'subscription.paid',
        subscriptionRef: intent.subscriptionId,
        invoiceRef: `in_local_${token()}`,
        periodEnd,
      });
    }
    return { status: 'succeeded' } as const;
  }

  /**
   * Runs a state change, then hands its events to the webhook at once (the job retries failures).
   * Once the change is committed (a card charged) its answer stands: if the database goes away
   * before the events are handed over, the payment job delivers them when it is back (a claim
   * left unsettled lapses within its short lease), and the buyer is not told to try again for a
   * payment that went through.
   */
  async function changeThenDeliver<T>(change: (tx: Tx) => Promise<T>): Promise<T> {
    const ids: string[] = [];
    const result = await db.transaction(async (tx) => {
      written.set(tx, ids);
      return change(tx);
    });
    if (ids.length) await provider.deliverDue(ids).catch(() => undefined);
    return result;
  }

  const provider: LocalProvider = {
    name: 'local',
    clientConfig: () => ({ provider: 'local', sellersOnboard: false }),
    ...localSavedCards({ db, now, enqueue, changeThenDeliver }),

    async createPayment({ paymentId, amountCents }) {
      const existing = await intentOfPayment(db, paymentId);
      if (existing) return { ref: existing.id, clientSecret: existing.clientSecret };
      const id = `pi_local_${token()}`;
      const clientSecret = `${id}_secret_${token(16)}`;
      await insertIntent(db, { id, clientSecret, amountCents, paymentId });
      return { ref: id, clientSecret };
    },

    async createHostedPayment(input) {
      const { ref } = await provider.createPayment(input);
      await setHostedPage(db, ref, input);
      return { ref, url: `${options.publicUrl}/pay/${ref}` };
    },

    async hostedPayment(id) {
      const intent = await intentById(db, id);
      if (!intent?.successUrl || !intent.cancelUrl) throw notFound('No such payment page');
      const status = { succeeded: 'paid', refunded: 'paid', canceled: 'expired' } as const;
      return {
        description: intent.description ?? 'Payment',
        amountCents: intent.amountCents,
        clientSecret: intent.clientSecret,
        status: status[intent.status as keyof typeof status] ?? 'open',
        successUrl: intent.successUrl,
        cancelUrl: intent.cancelUrl,
      };
    },

    async cancelPayment(ref) {
      return db.transaction(async (tx) => {
        const intent = await intentById(tx, ref, true);
        if (!intent) return 'canceled';
        if (intent.status === 'succeeded' || intent.status === 'refunded') return 'succeeded';
        await setIntentStatus(tx, ref, { status: 'canceled', at: now() });
        return 'canceled';
      });
    },

    async refundPayment(ref) {
      await setIntentStatus(db, ref, { status: 'refunded', at: now() }, 'succeeded');
    },

    async createSubscription({ amountCents }) {
      const subscriptionRef = `sub_local_${token()}`;
      const id = `pi_local_${token()}`;
      const clientSecret = `${id}_secret_${token(16)}`;
      await db.transaction(async (tx) => {
        await insertSubscription(tx, subscriptionRef);
        await insertIntent(tx, { id, clientSecret, amountCents, subscriptionId: subscriptionRef });
      });
      return { ref: subscriptionRef, clientSecret };
    },

    async cancelSubscriptionAtPeriodEnd(ref) {
      await changeThenDeliver(async (tx) => {
        const subscription = await markCancelAtPeriodEnd(tx, ref);
        if (!subscription) throw notFound('No such subscription at the payment provider');
        await enqueue(tx, {
          type: 'subscription.updated',
          subscriptionRef: ref,
          periodEnd: subscription.currentPeriodEnd,
          cancelAtPeriodEnd: true,
        });
      });
    },

    async refundSubscription(ref) {
      await changeThenDeliver(async (tx) => {
        await refundIntentsOfSubscription(tx, ref, now());
        const active = await lockActiveSubscription(tx, ref);
        if (!active) return;
        await endSubscription(tx, ref);
        await enqueue(tx, { type: 'subscription.ended', subscriptionRef: ref });
      });
    },

    async parseWebhook(rawBody, headers) {
      const body = rawBody.toString('utf8');
      verifyLocalSignature(options.webhookSecret, body, headers[LOCAL_SIGNATURE_HEADER], now());
      return parseLocalEvent(body);
    },

    confirm(clientSecret, card) {
      return changeThenDeliver(async (tx) => {
        const intent = await intentBySecret(tx, clientSecret);
        const outcome = decideCard(card, now());
        if (outcome.kind === 'declined') return fail(tx, intent, outcome.message);
        if (outcome.kind === 'requires_action') {
          await setIntentStatus(tx, intent.id, {
            status: 'requires_action',
            cardLast4: outcome.last4,
            lastError: null,
            at: now(),
          });
          return { status: 'requires_action' } as const;
        }
        return succeed(tx, intent, outcome.last4);
      });
    },

    authenticate(clientSecret, approve) {
      return changeThenDeliver(async (tx) => {
        const intent = await intentBySecret(tx, clientSecret);
        if (intent.status !== 'requires_action') {
          throw conflict('CONFLICT', 'This payment does not need an extra confirmation step.');
        }
        if (!approve) return fail(tx, intent, DECLINE_MESSAGES.authenticationFailed);
        return succeed(tx, intent, intent.cardLast4);
      });
    },

    attachWebhook(sender) {
      send = sender;
    },

    async deliverDue(only) {
      if (!send) return 0;
      // Claim due events for a short lease renewed while they are delivered (platform/leases.ts),
      // so two deliverers (the request and the job, or two instances) do not both send them, and
      // a deliverer that dies leaves them to another within seconds; a duplicate would still change
      // nothing at the endpoint. The job leaves fresh events to the request that wrote them, so
      // that request answers only once its order exists. A failed delivery is retried after
      // 2, 8, 18 … seconds, at most an hour apart.
      const claimedAt = performance.now();
      const claimed = await claimDueEvents(db, {
        only,
        leaseSec: LEASE_SEC,
        freshSec: FRESH_EVENT_SEC,
        limit: MAX_DELIVERY_BATCH,
      });
      if (claimed.length === 0) return 0;
      const leases = holdLeases(
        claimed.map((event) => ({ id: event.id, token: event.attempts })),
        (claims, leaseSec) => renewEventClaims(db, claims, leaseSec),
        { claimedAt, onError: options.onLeaseError },
      );
      // RETURNING has no order; deliver in the order the events happened.
      const due = [...claimed].sort((a, b) => a.created_at.localeCompare(b.created_at));
      let delivered = 0;
      try {
        for (const event of due) {
          // Stalled past the lease and taken over by another deliverer: that one sends it.
          if (!(await leases.holds(event.id))) continue;
          let status = 0;
          try {
            status = await send(event.payload, {
              'content-type': 'application/json',
              [LOCAL_SIGNATURE_HEADER]: signLocalPayload(options.webhookSecret, event.payload, now()),
            });
          } catch {
            status = 0;
          }
          await leases.finish(event.id);
          if (status >= 200 && status < 300) {
            delivered++;
            await markDelivered(db, event.id, now());
          } else {
            await scheduleRetry(db, { id: event.id, token: event.attempts });
          }
        }
      } finally {
        await leases.stop();
      }
      return delivered;
    },

    async renewDue(at = now()) {
      const due = await subscriptionsDue(db, at);
      for (const subscription of due) {
        await changeThenDeliver(async (tx) => {
          const locked = await lockActiveSubscription(tx, subscription.id);
          if (!locked?.currentPeriodEnd || locked.currentPeriodEnd > at) return;
          if (locked.cancelAtPeriodEnd) {
            await endSubscription(tx, locked.id);
            await enqueue(tx, { type: 'subscription.ended', subscriptionRef: locked.id });
            return;
          }
          // Renewal: the saved card is charged for the next period.
          const periodEnd = addMonths(locked.currentPeriodEnd, SUBSCRIPTION_PERIOD_MONTHS);
          await extendSubscription(tx, locked.id, periodEnd);
          await enqueue(tx, {
            type: 'subscription.paid',
            subscriptionRef: locked.id,
            invoiceRef: `in_local_${token()}`,
            periodEnd,
          });
        });
      }
      return due.length;
    },

    sign(body) {
      return signLocalPayload(options.webhookSecret, body, now());
    },
  };
  return provider;
}
