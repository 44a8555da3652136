import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { toUserRow, USER_COLUMNS, type UserRecord, type UserRow } from '../../platform/user.ts';

export type { UserRow };

export type NewUserRow = Omit<UserRow, 'id' | 'plan' | 'createdAt'>;

async function oneUser(db: Db | Tx, query: ReturnType<typeof sql>): Promise<UserRow | undefined> {
  const result = await db.execute<UserRecord>(query);
  const row = result.rows[0];
  return row ? toUserRow(row) : undefined;
}

export function findUserByHandle(db: Db, handle: string): Promise<UserRow | undefined> {
  return oneUser(db, sql`select ${USER_COLUMNS} from users u where u.handle = ${handle} limit 1`);
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return oneUser(db, sql`select ${USER_COLUMNS} from users u where u.email = ${email} limit 1`);
}

async function insertUserRow(db: Db | Tx, values: NewUserRow): Promise<UserRow> {
  const row = await oneUser(
    db,
    sql`insert into users as u (handle, email, password_hash, first_name, last_name, business_name, profile_image_url)
      values (${values.handle}, ${values.email}, ${values.passwordHash}, ${values.firstName}, ${values.lastName},
        ${values.businessName}, ${values.profileImageUrl})
      returning ${USER_COLUMNS}`,
  );
  if (!row) throw new Error('insert returned no row');
  return row;
}

export function insertUser(db: Db, values: NewUserRow): Promise<UserRow> {
  return insertUserRow(db, values);
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
