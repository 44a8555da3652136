import type { StorefrontResponse } from '@streamshop/contract/catalog.ts';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';
import { notFound } from '../../platform/errors.ts';
import { findUserByHandle } from '../auth/service.ts';
import { listSellerProducts } from '../catalog/service.ts';
import { featuredProductCounts } from '../shop/service.ts';
import { findStreamByRoom, listStreamsOfOwner, liveRoomOfOwner, toStream } from '../streams/service.ts';
import { sellerTotals } from './repo.ts';

/**
 * A seller's public page: profile, products, replays (streams with a recording, each with how
 * many products it features), the stream they are live in now, and totals.
 */
export async function storefront(db: Db, handle: string): Promise<StorefrontResponse> {
  const user = await findUserByHandle(db, handle);
  if (!user) throw notFound(`The user @${handle} does not exist or has no storefront.`);
  const [products, streams, totals, liveRoom] = await Promise.all([
    listSellerProducts(db, user.id, 200),
    listStreamsOfOwner(db, user.id, true),
    sellerTotals(db, user.id),
    liveRoomOfOwner(db, user.id),
  ]);
  const liveStream = liveRoom ? await findStreamByRoom(db, liveRoom) : undefined;
  const featured = await featuredProductCounts(
    db,
    streams.map((stream) => stream.id),
  );
  return {
    user: {
      handle: user.handle,
      businessName: user.businessName,
      profileImageUrl: user.profileImageUrl,
      createdAt: iso(user.createdAt),
    },
    products,
    streams: streams.map((stream) => ({ ...stream, featuredProducts: featured.get(stream.id) ?? 0 })),
    liveStream: liveStream ? toStream(liveStream) : null,
    stats: {
      productCount: totals.products,
      vodCount: streams.length,
      totalViews: totals.views,
    },
  };
}
