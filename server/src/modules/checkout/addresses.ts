import {
  SAVED_ADDRESSES_KEPT,
  SAVED_ADDRESSES_LIMIT,
  type SavedAddress,
} from '@streamshop/contract/shipping.ts';
import type { Db, Tx } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { notFound } from '../../platform/errors.ts';
import { addressesOf, deleteAddress, saveAddress } from './addresses-repo.ts';
import type { ShippingAddress } from './repo.ts';

/** A buyer's saved addresses (ADR 0016): offered at checkout, the newest the one an auction ships to. */

/**
 * GET /api/addresses: the caller's saved addresses, the most recently used first; the few a
 * checkout offers, or with `all` every one kept (for settings).
 */
export async function savedAddresses(
  db: Db | Tx,
  userId: string,
  options: { all?: boolean } = {},
): Promise<SavedAddress[]> {
  const rows = await addressesOf(db, userId, options.all ? SAVED_ADDRESSES_KEPT : SAVED_ADDRESSES_LIMIT);
  return rows.map(({ lastUsedAt, ...address }) => ({ ...address, lastUsedAt: iso(lastUsedAt) }));
}

/** POST /api/addresses: saves an address (or marks the same one used); it becomes the default, the newest. */
export async function addAddress(db: Db, userId: string, address: ShippingAddress): Promise<SavedAddress> {
  await db.transaction((tx) => saveAddress(tx, userId, address));
  const [newest] = await savedAddresses(db, userId);
  if (!newest) throw new Error('the address was not saved');
  return newest;
}

/** DELETE /api/addresses/:id: forgets one of the caller's addresses; 404 for anyone else's. */
export async function removeAddress(db: Db, userId: string, addressId: string): Promise<void> {
  if (!(await deleteAddress(db, userId, addressId))) throw notFound('Address not found');
}
