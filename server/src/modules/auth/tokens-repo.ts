import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';

/** Single-use links mailed to an account (account_tokens). */

export type TokenPurpose = 'verify_email' | 'reset_password' | 'change_email';

export type TokenRow = {
  id: string;
  user_id: string;
  purpose: TokenPurpose;
  email: string;
  expired: boolean;
  used: boolean;
};

export async function insertToken(
  tx: Db | Tx,
  token: { hash: string; userId: string; purpose: TokenPurpose; email: string; ttlSec: number },
): Promise<string> {
  const result = await tx.execute<{ id: string }>(sql`
    insert into account_tokens (token_hash, user_id, purpose, email, expires_at)
    values (${token.hash}, ${token.userId}, ${token.purpose}, ${token.email},
      now() + make_interval(secs => ${token.ttlSec}))
    returning id`);
  const row = result.rows[0];
  if (!row) throw new Error('the token row was not written');
  return row.id;
}

/** Uses the token once: answers its row when it was unused and in time (now used), else undefined. */
export async function useToken(
  tx: Db | Tx,
  hash: string,
  purpose: TokenPurpose,
): Promise<TokenRow | undefined> {
  const result = await tx.execute<TokenRow>(sql`
    update account_tokens set used_at = now()
    where token_hash = ${hash} and purpose = ${purpose} and used_at is null and expires_at > now()
    returning id, user_id, purpose, email, false as expired, false as used`);
  return result.rows[0];
}

/** The token's row whatever its state, to say why it cannot be used. */
export async function findToken(
  db: Db | Tx,
  hash: string,
  purpose: TokenPurpose,
): Promise<TokenRow | undefined> {
  const result = await db.execute<TokenRow>(sql`
    select id, user_id, purpose, email, expires_at <= now() as expired, used_at is not null as used
    from account_tokens where token_hash = ${hash} and purpose = ${purpose}`);
  return result.rows[0];
}

/** Every other unused token of the account for `purpose` stops working (after a reset, say). */
export async function retireTokens(tx: Db | Tx, userId: string, purpose: TokenPurpose): Promise<void> {
  await tx.execute(sql`
    update account_tokens set used_at = now()
    where user_id = ${userId} and purpose = ${purpose} and used_at is null`);
}
