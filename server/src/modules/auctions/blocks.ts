import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { blocksOf, deleteBlock, insertBlock, userByHandle } from './repo.ts';

/** A seller's blocks: accounts that may not bid in any of their rooms' auctions. */

export async function listBlocks(db: Db, sellerId: string) {
  const rows = await blocksOf(db, sellerId);
  return { blocks: rows.map((row) => ({ handle: row.handle, blockedAt: iso(row.created_at) })) };
}

export async function blockBidder(db: Db, sellerId: string, handle: string) {
  const userId = await userByHandle(db, handle);
  if (!userId) throw notFound('No user has this handle');
  if (userId === sellerId) throw badRequest('You cannot block yourself.', { handle: 'is your own' });
  await insertBlock(db, sellerId, userId);
  return listBlocks(db, sellerId);
}

export async function unblockBidder(db: Db, sellerId: string, handle: string): Promise<void> {
  const userId = await userByHandle(db, handle);
  if (!userId || !(await deleteBlock(db, sellerId, userId))) throw notFound('This account is not blocked');
}
