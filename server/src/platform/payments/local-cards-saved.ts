import { randomBytes } from 'node:crypto';
import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, notFound } from '../errors.ts';
import { type Card, cardBrand, cardExpired, DECLINE_MESSAGES, decideSetup } from './local-cards.ts';
import type { PaymentEvent, PaymentProvider, SavedCard, SavedCardCharge } from './provider.ts';

/**
 * The local provider's saved cards (issue 28): its SetupIntents (local_card_setups, confirmed in the
 * browser with a test card) and off-session charges of the cards they saved, each a
 * local_payment_intents row whose id is made from the payment id, so a retry finds the first
 * charge instead of making a second.
 */

const token = (bytes = 12) => randomBytes(bytes).toString('hex');

/** Shown for a charge of a card its owner removed (Stripe answers the same in words of its own). */
export const DETACHED_CARD_MESSAGE = 'This card was removed. Choose another card.';

type SetupRow = {
  id: string;
  customerRef: string;
  status: 'requires_payment_method' | 'succeeded';
  methodRef: string | null;
  cardNumber: string | null;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  detachedAt: Date | string | null;
};

const SETUP_COLUMNS = sql.raw(`id, customer_ref as "customerRef", status, method_ref as "methodRef",
  card_number as "cardNumber", brand, last4, exp_month as "expMonth", exp_year as "expYear",
  detached_at as "detachedAt"`);

type ChargeRow = { id: string; status: string; lastError: string | null };

type WithoutMeta<T> = Omit<T, 'id' | 'createdAt'>;
type PaymentOutcome =
  | WithoutMeta<Extract<PaymentEvent, { type: 'payment.succeeded' }>>
  | WithoutMeta<Extract<PaymentEvent, { type: 'payment.failed' }>>;

/** What the provider hands this part: its clock, its outbox and its commit-then-deliver step. */
export interface SavedCardsDeps {
  db: Db;
  now: () => Date;
  enqueue: (tx: Tx, event: PaymentOutcome) => Promise<void>;
  changeThenDeliver: <T>(change: (tx: Tx) => Promise<T>) => Promise<T>;
}

export type LocalSavedCards = Pick<
  PaymentProvider,
  'createCardSetup' | 'savedCard' | 'detachCard' | 'chargeSavedCard'
> & {
  /** The browser confirmed a setup with a test card (POST /api/payments/local/setups/confirm). */
  confirmSetup(
    clientSecret: string,
    card: Card,
  ): Promise<{ status: 'succeeded' } | { status: 'failed'; message: string }>;
};

export function localSavedCards({ db, now, enqueue, changeThenDeliver }: SavedCardsDeps): LocalSavedCards {
  /** Why a charge of this saved card is declined, or null when it goes through. */
  function declineReason(setup: SetupRow | undefined, customerRef: string): string | null {
    if (setup?.status !== 'succeeded' || setup.customerRef !== customerRef) {
      return DECLINE_MESSAGES.declined;
    }
    if (setup.detachedAt) return DETACHED_CARD_MESSAGE;
    if (
      setup.expMonth === null ||
      setup.expYear === null ||
      cardExpired(setup.expMonth, setup.expYear, now())
    ) {
      return DECLINE_MESSAGES.expiredCard;
    }
    if (setup.cardNumber === TEST_CARDS.declineAfterAttach) return DECLINE_MESSAGES.declined;
    return null;
  }

  return {
    async createCardSetup({ customerRef }) {
      const customer = customerRef ?? `lcus_${token()}`;
      const id = `lseti_${token()}`;
      const clientSecret = `${id}_secret_${token(16)}`;
      await db.execute(sql`
        insert into local_card_setups (id, client_secret, customer_ref, status)
        values (${id}, ${clientSecret}, ${customer}, 'requires_payment_method')`);
      return { customerRef: customer, setupRef: id, clientSecret };
    },

    async confirmSetup(clientSecret, card) {
      return db.transaction(async (tx) => {
        const setup = (
          await tx.execute<SetupRow>(sql`
            select ${SETUP_COLUMNS} from local_card_setups where client_secret = ${clientSecret} for update`)
        ).rows[0];
        if (!setup) throw notFound('No card setup matches this client secret');
        if (setup.status === 'succeeded') throw conflict('CONFLICT', 'This card is already saved.');
        const outcome = decideSetup(card, now());
        if (outcome.kind !== 'approved') {
          return {
            status: 'failed',
            message: 'message' in outcome ? outcome.message : DECLINE_MESSAGES.declined,
          };
        }
        await tx.execute(sql`
          update local_card_setups
          set status = 'succeeded', method_ref = ${`lpm_${token()}`}, card_number = ${card.number},
            brand = ${cardBrand(card.number)}, last4 = ${outcome.last4}, exp_month = ${card.expMonth},
            exp_year = ${card.expYear < 100 ? 2000 + card.expYear : card.expYear}
          where id = ${setup.id}`);
        return { status: 'succeeded' };
      });
    },

    async savedCard(setupRef): Promise<SavedCard | null> {
      const setup = (
        await db.execute<SetupRow>(sql`select ${SETUP_COLUMNS} from local_card_setups where id = ${setupRef}`)
      ).rows[0];
      if (setup?.status !== 'succeeded' || !setup.methodRef || !setup.brand || !setup.last4) return null;
      if (setup.expMonth === null || setup.expYear === null) return null;
      return {
        customerRef: setup.customerRef,
        methodRef: setup.methodRef,
        brand: setup.brand,
        last4: setup.last4,
        expMonth: setup.expMonth,
        expYear: setup.expYear,
      };
    },

    async detachCard(methodRef) {
      await db.execute(sql`
        update local_card_setups set detached_at = ${now()}
        where method_ref = ${methodRef} and detached_at is null`);
    },

    chargeSavedCard({
      paymentId,
      amountCents,
      description,
      customerRef,
      methodRef,
    }): Promise<SavedCardCharge> {
      // One intent per payment id (its primary key): the second call finds the first's outcome.
      const id = `pi_local_saved_${paymentId}`;
      return changeThenDeliver(async (tx) => {
        const inserted = await tx.execute(sql`
          insert into local_payment_intents (id, client_secret, amount_cents, payment_id, description, status)
          values (${id}, ${`${id}_secret_${token(16)}`}, ${amountCents}, ${paymentId}, ${description},
            'requires_payment_method')
          on conflict (id) do nothing returning id`);
        if (inserted.rows.length === 0) {
          const earlier = (
            await tx.execute<ChargeRow>(sql`
              select id, status, last_error as "lastError" from local_payment_intents where id = ${id}`)
          ).rows[0];
          if (earlier && (earlier.status === 'succeeded' || earlier.status === 'refunded')) {
            return { status: 'succeeded', ref: id };
          }
          return { status: 'declined', ref: id, message: earlier?.lastError ?? DECLINE_MESSAGES.declined };
        }
        const setup = (
          await tx.execute<SetupRow>(sql`
            select ${SETUP_COLUMNS} from local_card_setups where method_ref = ${methodRef}`)
        ).rows[0];
        const declined = declineReason(setup, customerRef);
        await tx.execute(sql`
          update local_payment_intents
          set status = ${declined ? 'requires_payment_method' : 'succeeded'}, card_last4 = ${setup?.last4 ?? null},
            last_error = ${declined}, updated_at = ${now()}
          where id = ${id}`);
        if (declined) {
          // As Stripe does for a failed off-session charge: the webhook hears of it too.
          await enqueue(tx, { type: 'payment.failed', paymentId, ref: id, message: declined });
          return { status: 'declined', ref: id, message: declined };
        }
        await enqueue(tx, { type: 'payment.succeeded', paymentId, ref: id, amountCents });
        return { status: 'succeeded', ref: id };
      });
    },
  };
}
