import type { Db } from '../../db/client.ts';
import { betaSignups, discOrders, newsletterPreorders } from '../../db/schema.ts';

export type BetaSignupRow = typeof betaSignups.$inferSelect;
export type NewsletterPreorderRow = typeof newsletterPreorders.$inferSelect;
export type DiscOrderRow = typeof discOrders.$inferSelect;

/** Postgres unique_violation, with the name of the index that refused the row. */
export function uniqueViolation(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError?.code === '23505' ? (pgError.constraint ?? '') : undefined;
}

export async function insertBetaSignup(
  db: Db,
  values: typeof betaSignups.$inferInsert,
): Promise<BetaSignupRow> {
  const [row] = await db.insert(betaSignups).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function insertNewsletterPreorder(
  db: Db,
  values: typeof newsletterPreorders.$inferInsert,
): Promise<NewsletterPreorderRow> {
  const [row] = await db.insert(newsletterPreorders).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function insertDiscOrder(db: Db, values: typeof discOrders.$inferInsert): Promise<DiscOrderRow> {
  const [row] = await db.insert(discOrders).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}
