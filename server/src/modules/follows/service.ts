import type { Following, FollowState } from '@streamshop/contract/follows.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { findUserByHandle } from '../auth/service.ts';
import { upcomingShowsOfSellers } from '../shows/service.ts';
import { liveStreamsOfOwners } from '../streams/service.ts';
import { deleteFollow, followedSellers, followState, insertFollow } from './repo.ts';

/** What other modules may use: the followers in batches (the notifications' fan-out), one follow (giveaways). */
export { followersAfter, isFollower } from './repo.ts';

/** How many followed sellers GET /api/following lists. */
const FOLLOWING_LIMIT = 200;

async function sellerOf(handle: string, db: Db) {
  const seller = await findUserByHandle(db, handle);
  if (!seller) throw notFound('No user has this handle');
  return seller;
}

export async function getFollowState(
  db: Db,
  viewerId: string | undefined,
  handle: string,
): Promise<FollowState> {
  const seller = await sellerOf(handle, db);
  return { handle: seller.handle, ...(await followState(db, viewerId, seller.id)) };
}

/** Follows the seller (following twice is one follow); nobody follows themselves. */
export async function follow(db: Db, followerId: string, handle: string): Promise<FollowState> {
  const seller = await sellerOf(handle, db);
  if (seller.id === followerId) throw badRequest('You cannot follow yourself', { handle: 'is your own' });
  await insertFollow(db, followerId, seller.id);
  return { handle: seller.handle, ...(await followState(db, followerId, seller.id)) };
}

export async function unfollow(db: Db, followerId: string, handle: string): Promise<FollowState> {
  const seller = await sellerOf(handle, db);
  await deleteFollow(db, followerId, seller.id);
  return { handle: seller.handle, ...(await followState(db, followerId, seller.id)) };
}

/** The followed sellers, their rooms live now and their upcoming shows (soonest first). */
export async function following(db: Db, followerId: string): Promise<Following> {
  const sellers = await followedSellers(db, followerId, FOLLOWING_LIMIT);
  const ids = sellers.map((seller) => seller.id);
  const [live, upcoming] = await Promise.all([
    liveStreamsOfOwners(db, ids),
    upcomingShowsOfSellers(db, ids, followerId),
  ]);
  return {
    sellers: sellers.map((seller) => ({
      handle: seller.handle,
      name: seller.name,
      followers: seller.followers,
      followedAt: new Date(seller.followed_at).toISOString(),
    })),
    live,
    upcoming,
  };
}
