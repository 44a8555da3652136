import { SAVED_ADDRESSES_KEPT } from '@streamshop/contract/shipping.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { ShippingAddress } from './repo.ts';

/** A buyer's saved addresses (ADR 0016): offered at the next checkout, the most recently used first. */

export type SavedAddressRow = ShippingAddress & { id: string; lastUsedAt: Date | string };

/** Case, runs of spaces and spaces in the postal code do not make an address another one. */
const same = (column: string, value: string | null) =>
  sql`lower(coalesce(${sql.identifier(column)}, '')) = lower(${value ?? ''})`;

/**
 * Saves the address for the buyer, or marks the same one (compared without case, and the postal
 * code without spaces) as just used. A per-buyer advisory lock makes two checkouts at once write one.
 */
export async function saveAddress(tx: Tx, userId: string, address: ShippingAddress): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`addresses:${userId}`}))`);
  const bumped = await tx.execute(sql`
    update addresses set last_used_at = clock_timestamp()
    where user_id = ${userId} and ${same('name', address.name)} and ${same('line1', address.line1)}
      and ${same('line2', address.line2)} and ${same('city', address.city)}
      and ${same('region', address.region)} and upper(country) = upper(${address.country})
      and upper(replace(postal_code, ' ', '')) = upper(${address.postalCode.replaceAll(' ', '')})
    returning id`);
  if (bumped.rows.length > 0) return;
  await tx.execute(sql`
    insert into addresses (user_id, name, line1, line2, city, region, postal_code, country, last_used_at)
    values (${userId}, ${address.name}, ${address.line1}, ${address.line2}, ${address.city},
      ${address.region}, ${address.postalCode}, ${address.country}, clock_timestamp())`);
  await tx.execute(sql`
    delete from addresses where user_id = ${userId} and id not in (
      select id from addresses where user_id = ${userId} order by last_used_at desc, id limit ${SAVED_ADDRESSES_KEPT})`);
}

/** The buyer's addresses, the most recently used first. */
export async function addressesOf(
  db: Pick<Db, 'execute'>,
  userId: string,
  limit: number,
): Promise<SavedAddressRow[]> {
  const found = await db.execute<SavedAddressRow>(sql`
    select id, name, line1, line2, city, region, postal_code as "postalCode", country,
      last_used_at as "lastUsedAt"
    from addresses where user_id = ${userId}
    order by last_used_at desc, created_at desc, id limit ${limit}`);
  return found.rows;
}

/**
 * Forgets one of the buyer's addresses; false when it is not theirs (or not there). Orders and
 * payments keep their own copy of the address, so nothing else changes.
 */
export async function deleteAddress(db: Db, userId: string, addressId: string): Promise<boolean> {
  const deleted = await db.execute(sql`
    delete from addresses where id = ${addressId} and user_id = ${userId} returning id`);
  return deleted.rows.length > 0;
}
