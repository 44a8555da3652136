import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { toUserRow, USER_COLUMNS, type UserRecord, type UserRow } from '../../platform/user.ts';

export type { UserRow };

export type NewUserRow = Omit<UserRow, 'id' | 'plan' | 'createdAt' | 'emailVerified'> & {
  /** The address is known to be the owner's already (an identity provider verified it). */
  emailVerified?: boolean;
};

async function oneUser(db: Db | Tx, query: ReturnType<typeof sql>): Promise<UserRow | undefined> {
  const result = await db.execute<UserRecord>(query);
  const row = result.rows[0];
  return row ? toUserRow(row) : undefined;
}

export function findUserByHandle(db: Db, handle: string): Promise<UserRow | undefined> {
  return oneUser(
    db,
    sql`select ${USER_COLUMNS} from users u where u.handle = ${handle} and u.deleted_at is null limit 1`,
  );
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return oneUser(
    db,
    sql`select ${USER_COLUMNS} from users u where u.email = ${email} and u.deleted_at is null limit 1`,
  );
}

async function insertUserRow(db: Db | Tx, values: NewUserRow): Promise<UserRow> {
  const row = await oneUser(
    db,
    sql`insert into users as u (handle, email, password_hash, first_name, last_name, business_name, profile_image_url,
        email_verified_at)
      values (${values.handle}, ${values.email}, ${values.passwordHash}, ${values.firstName}, ${values.lastName},
        ${values.businessName}, ${values.profileImageUrl}, ${values.emailVerified ? sql`now()` : null})
      returning ${USER_COLUMNS}`,
  );
  if (!row) throw new Error('insert returned no row');
  return row;
}

export function insertUser(db: Db | Tx, values: NewUserRow): Promise<UserRow> {
  return insertUserRow(db, values);
}

export function findUserById(db: Db | Tx, id: string): Promise<UserRow | undefined> {
  return oneUser(db, sql`select ${USER_COLUMNS} from users u where u.id = ${id} and u.deleted_at is null`);
}

/** The address is the owner's: marked verified, as long as the account still uses `email`. */
export async function markEmailVerified(tx: Db | Tx, userId: string, email: string): Promise<boolean> {
  const result = await tx.execute(sql`
    update users set email_verified_at = coalesce(email_verified_at, now())
    where id = ${userId} and email = ${email} and deleted_at is null`);
  return (result.rowCount ?? 0) > 0;
}

export async function setPasswordHash(tx: Db | Tx, userId: string, passwordHash: string): Promise<void> {
  await tx.execute(sql`update users set password_hash = ${passwordHash} where id = ${userId}`);
}

/** Postgres unique_violation, with the name of the index that refused the row. */
export function uniqueViolation(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const pgError = cause as { code?: string; constraint?: string };
  return pgError?.code === '23505' ? (pgError.constraint ?? '') : undefined;
}

/** The account linked to an external identity (OpenID Connect provider + subject), if any. */
export function findUserByIdentity(db: Db, provider: string, subject: string): Promise<UserRow | undefined> {
  return oneUser(
    db,
    sql`select ${USER_COLUMNS} from user_identities i join users u on u.id = i.user_id
      where i.provider = ${provider} and i.subject = ${subject} limit 1`,
  );
}

/** The external identities linked to an account. */
export async function identitiesOfUser(
  db: Db,
  userId: string,
): Promise<{ provider: string; subject: string }[]> {
  const result = await db.execute<{ provider: string; subject: string }>(
    sql`select provider, subject from user_identities where user_id = ${userId}`,
  );
  return result.rows;
}

/** Links an external identity to an account; a link that already exists is left as it is. */
export async function linkIdentity(
  db: Db | Tx,
  provider: string,
  subject: string,
  userId: string,
): Promise<void> {
  await db.execute(sql`
    insert into user_identities (provider, subject, user_id) values (${provider}, ${subject}, ${userId})
    on conflict do nothing`);
}

/** Creates an account and links the external identity to it, atomically. */
export function insertUserWithIdentity(
  db: Db,
  values: NewUserRow,
  provider: string,
  subject: string,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const row = await insertUserRow(tx, values);
    await tx.execute(sql`
      insert into user_identities (provider, subject, user_id) values (${provider}, ${subject}, ${row.id})`);
    return row;
  });
}

/** The profile fields the owner edits; undefined leaves a field as it is. */
export interface ProfileChanges {
  firstName?: string | undefined;
  lastName?: string | undefined;
  businessName?: string | null | undefined;
  profileImageUrl?: string | null | undefined;
}

export async function updateProfile(
  db: Db | Tx,
  userId: string,
  changes: ProfileChanges,
): Promise<UserRow | undefined> {
  const keep = (value: unknown) => value === undefined;
  return oneUser(
    db,
    sql`update users u set
        first_name = ${keep(changes.firstName) ? sql`u.first_name` : sql`${changes.firstName}`},
        last_name = ${keep(changes.lastName) ? sql`u.last_name` : sql`${changes.lastName}`},
        business_name = ${keep(changes.businessName) ? sql`u.business_name` : sql`${changes.businessName}`},
        profile_image_url = ${
          keep(changes.profileImageUrl) ? sql`u.profile_image_url` : sql`${changes.profileImageUrl}`
        }
      where u.id = ${userId} and u.deleted_at is null
      returning ${USER_COLUMNS}`,
  );
}

/** Whether another account (deleted ones too: their rows keep a placeholder) uses `email`. */
export async function emailInUse(db: Db | Tx, email: string, exceptUserId: string): Promise<boolean> {
  const result = await db.execute(sql`select 1 from users where email = ${email} and id <> ${exceptUserId}`);
  return result.rows.length > 0;
}

/** A confirmed new address: it becomes the account's, verified (the link reached it). */
export async function setVerifiedEmail(tx: Db | Tx, userId: string, email: string): Promise<boolean> {
  const result = await tx.execute(sql`
    update users set email = ${email}, email_verified_at = now()
    where id = ${userId} and deleted_at is null`);
  return (result.rowCount ?? 0) > 0;
}

/**
 * Empties a deleted account's row: it stays only because orders and payments name it. The handle
 * and address become placeholders nobody can sign in with, the rest is cleared, and its external
 * identities and mailed links are removed.
 */
export async function anonymiseUser(tx: Db | Tx, userId: string, placeholderHandle: string): Promise<void> {
  await tx.execute(sql`delete from user_identities where user_id = ${userId}`);
  await tx.execute(sql`delete from account_tokens where user_id = ${userId}`);
  await tx.execute(sql`
    update users set handle = ${placeholderHandle}, email = ${`deleted-${userId}@invalid`},
      first_name = 'Deleted user', last_name = '', business_name = null,
      profile_image_url = null, password_hash = null, email_verified_at = null, deleted_at = now()
    where id = ${userId}`);
}
