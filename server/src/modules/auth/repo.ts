import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userIdentities, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export async function findUserByHandle(db: Db, handle: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.handle, handle)).limit(1);
  return row;
}

export async function insertUser(db: Db, values: NewUserRow): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Postgres unique_violation, with the name of the index that refused the row. */
export function uniqueViolation(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError?.code === '23505' ? (pgError.constraint ?? '') : undefined;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

/** The account linked to an external identity (OpenID Connect provider + subject), if any. */
export async function findUserByIdentity(
  db: Db,
  provider: string,
  subject: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)))
    .limit(1);
  return row?.user;
}

/** The external identities linked to an account. */
export async function identitiesOfUser(
  db: Db,
  userId: string,
): Promise<{ provider: string; subject: string }[]> {
  return db
    .select({ provider: userIdentities.provider, subject: userIdentities.subject })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId));
}

/** Links an external identity to an account; a link that already exists is left as it is. */
export async function linkIdentity(db: Db, provider: string, subject: string, userId: string): Promise<void> {
  await db.insert(userIdentities).values({ provider, subject, userId }).onConflictDoNothing();
}

/** Creates an account and links the external identity to it, atomically. */
export async function insertUserWithIdentity(
  db: Db,
  values: NewUserRow,
  provider: string,
  subject: string,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(users).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    await tx.insert(userIdentities).values({ provider, subject, userId: row.id });
    return row;
  });
}
