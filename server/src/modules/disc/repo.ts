import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** The Stream Disc site's queries: beta sign-ups, pre-orders, orders and the $1 reservations. */

/** Postgres unique_violation, with the name of the index that refused the row. */
export function uniqueViolation(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError?.code === '23505' ? (pgError.constraint ?? '') : undefined;
}

async function insertedId(db: Db | Tx, query: ReturnType<typeof sql>): Promise<string> {
  const result = await db.execute<{ id: string }>(query);
  const row = result.rows[0];
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/** `createdAt` only for imports and tests; otherwise now. */
export function insertBetaSignup(
  db: Db | Tx,
  values: { email: string; source: string; createdAt?: Date },
): Promise<string> {
  return insertedId(
    db,
    sql`insert into beta_signups (email, source, created_at)
      values (${values.email}, ${values.source}, coalesce(${values.createdAt ?? null}::timestamptz, now()))
      returning id`,
  );
}

export function insertNewsletterPreorder(
  db: Db | Tx,
  values: { name: string; email: string; quantity: number; totalPriceCents: number },
): Promise<string> {
  return insertedId(
    db,
    sql`insert into newsletter_preorders (name, email, quantity, total_price_cents)
      values (${values.name}, ${values.email}, ${values.quantity}, ${values.totalPriceCents}) returning id`,
  );
}

export interface NewDiscOrder {
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  quantity: number;
  shippingAddress: string;
  city: string;
  state: string;
  zipCode: string;
  /** Default US. */
  country?: string;
}

export function insertDiscOrder(db: Db | Tx, order: NewDiscOrder): Promise<string> {
  return insertedId(
    db,
    sql`insert into disc_orders (name, email, phone, company, quantity, shipping_address, city, state, zip_code, country)
      values (${order.name}, ${order.email}, ${order.phone}, ${order.company}, ${order.quantity},
        ${order.shippingAddress}, ${order.city}, ${order.state}, ${order.zipCode}, ${order.country ?? 'US'})
      returning id`,
  );
}

// ---------------------------------------------------------------------------------------------
// The $1 reservation

/** A pending payment of the deposit, not yet at the provider. */
export function insertDepositPayment(tx: Tx, provider: string, amountCents: number): Promise<string> {
  return insertedId(
    tx,
    sql`insert into payments (kind, provider, amount_cents) values ('disc_preorder', ${provider}, ${amountCents})
      returning id`,
  );
}

export function insertDiscPreorder(
  tx: Tx,
  preorder: { name: string; email: string; phone: string | null; paymentRef: string },
): Promise<string> {
  return insertedId(
    tx,
    sql`insert into disc_preorders (name, email, phone, payment_ref)
      values (${preorder.name}, ${preorder.email}, ${preorder.phone}, ${preorder.paymentRef}) returning id`,
  );
}

/** The deposit was paid: its pre-order is paid; the pre-order, or undefined when none names it. */
export async function markDiscPreorderPaid(
  tx: Tx,
  paymentId: string,
): Promise<{ id: string; name: string; email: string } | undefined> {
  const result = await tx.execute<{ id: string; name: string; email: string }>(
    sql`update disc_preorders set status = 'paid' where payment_ref = ${paymentId} returning id, name, email`,
  );
  return result.rows[0];
}

export async function setDepositProviderRef(db: Db, paymentId: string, ref: string): Promise<void> {
  await db.execute(sql`update payments set provider_ref = ${ref} where id = ${paymentId}`);
}

/** The provider could not be reached: the deposit failed and its pre-order is cancelled. */
export async function failDeposit(
  db: Db,
  paymentId: string,
  preorderId: string,
  error: string,
): Promise<void> {
  await db.execute(sql`update payments set status = 'failed', last_error = ${error} where id = ${paymentId}`);
  await db.execute(sql`update disc_preorders set status = 'cancelled' where id = ${preorderId}`);
}

// ---------------------------------------------------------------------------------------------
// Exports, oldest first

const asDate = (value: Date | string) => new Date(value);

export async function betaSignupsForExport(db: Db) {
  const result = await db.execute<{ email: string; source: string; created_at: Date | string }>(
    sql`select email, source, created_at from beta_signups order by created_at, id`,
  );
  return result.rows.map((r) => ({ email: r.email, source: r.source, createdAt: asDate(r.created_at) }));
}

export async function newsletterPreordersForExport(db: Db) {
  const result = await db.execute<{
    name: string;
    email: string;
    quantity: number;
    total_price_cents: number;
    created_at: Date | string;
  }>(
    sql`select name, email, quantity, total_price_cents, created_at from newsletter_preorders order by created_at, id`,
  );
  return result.rows.map((r) => ({
    name: r.name,
    email: r.email,
    quantity: r.quantity,
    totalPriceCents: r.total_price_cents,
    createdAt: asDate(r.created_at),
  }));
}

export async function discOrdersForExport(db: Db) {
  const result = await db.execute<{
    name: string;
    email: string;
    phone: string | null;
    company: string | null;
    quantity: number;
    shipping_address: string;
    city: string;
    state: string;
    zip_code: string;
    country: string;
    created_at: Date | string;
  }>(sql`
    select name, email, phone, company, quantity, shipping_address, city, state, zip_code, country, created_at
    from disc_orders order by created_at, id`);
  return result.rows.map((r) => ({
    name: r.name,
    email: r.email,
    phone: r.phone,
    company: r.company,
    quantity: r.quantity,
    shippingAddress: r.shipping_address,
    city: r.city,
    state: r.state,
    zipCode: r.zip_code,
    country: r.country,
    createdAt: asDate(r.created_at),
  }));
}
