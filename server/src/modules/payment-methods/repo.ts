import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { SavedCard } from '../../platform/payments/provider.ts';

/** The saved cards (payment_methods) and each account's customer at the provider (payment_customers). */

type Executor = Db | Tx;

export type PaymentMethodRow = {
  id: string;
  userId: string;
  customerRef: string;
  methodRef: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  createdAt: Date | string;
};

const METHOD_COLUMNS = sql.raw(`id, user_id as "userId", customer_ref as "customerRef",
  method_ref as "methodRef", brand, last4, exp_month as "expMonth", exp_year as "expYear",
  created_at as "createdAt"`);

export async function customerRefOf(db: Executor, userId: string, provider: string): Promise<string | null> {
  const found = await db.execute<{ customerRef: string }>(sql`
    select customer_ref as "customerRef" from payment_customers
    where user_id = ${userId} and provider = ${provider}`);
  return found.rows[0]?.customerRef ?? null;
}

/** Records the account's customer unless one is already there; answers the one kept. */
export async function keepCustomerRef(
  db: Db,
  userId: string,
  provider: string,
  customerRef: string,
): Promise<string> {
  await db.execute(sql`
    insert into payment_customers (user_id, provider, customer_ref)
    values (${userId}, ${provider}, ${customerRef}) on conflict do nothing`);
  return (await customerRefOf(db, userId, provider)) ?? customerRef;
}

/** The account's saved cards at the provider, the newest first. */
export async function methodsOf(db: Executor, userId: string, provider: string): Promise<PaymentMethodRow[]> {
  const found = await db.execute<PaymentMethodRow>(sql`
    select ${METHOD_COLUMNS} from payment_methods
    where user_id = ${userId} and provider = ${provider}
    order by created_at desc, id desc`);
  return found.rows;
}

/** Serialises one account's card saves (the count limit holds under concurrent saves). */
export async function lockAccountCards(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`payment-methods:${userId}`}))`);
}

export async function methodByRef(
  db: Executor,
  provider: string,
  methodRef: string,
): Promise<PaymentMethodRow | undefined> {
  const found = await db.execute<PaymentMethodRow>(sql`
    select ${METHOD_COLUMNS} from payment_methods where provider = ${provider} and method_ref = ${methodRef}`);
  return found.rows[0];
}

export async function insertMethod(
  tx: Tx,
  userId: string,
  provider: string,
  card: SavedCard,
): Promise<PaymentMethodRow | undefined> {
  const inserted = await tx.execute<PaymentMethodRow>(sql`
    insert into payment_methods (user_id, provider, customer_ref, method_ref, brand, last4, exp_month, exp_year)
    values (${userId}, ${provider}, ${card.customerRef}, ${card.methodRef}, ${card.brand}, ${card.last4},
      ${card.expMonth}, ${card.expYear})
    on conflict (provider, method_ref) do nothing
    returning ${METHOD_COLUMNS}`);
  return inserted.rows[0];
}

export async function methodOfUser(
  db: Executor,
  userId: string,
  id: string,
): Promise<(PaymentMethodRow & { provider: string }) | undefined> {
  const found = await db.execute<PaymentMethodRow & { provider: string }>(sql`
    select ${METHOD_COLUMNS}, provider from payment_methods where id = ${id} and user_id = ${userId}`);
  return found.rows[0];
}

export async function deleteMethod(db: Executor, userId: string, id: string): Promise<void> {
  await db.execute(sql`delete from payment_methods where id = ${id} and user_id = ${userId}`);
}
