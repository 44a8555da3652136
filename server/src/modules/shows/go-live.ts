import type { User } from '@streamshop/contract/auth.ts';
import type { Stream } from '@streamshop/contract/catalog.ts';
import type { Db } from '../../db/client.ts';
import { conflict, forbidden, notFound } from '../../platform/errors.ts';
import { fillLineup } from '../shop/service.ts';
import { createRoom, findStreamByRoom, toStream } from '../streams/service.ts';
import { findShowRow, linkShowToStream, lockShow, showProductIds } from './repo.ts';

/**
 * POST /api/shows/:id/live: the show becomes a room, with its title, description and lineup, in
 * one transaction under the show's row lock (two clicks make one room). The seller then starts the
 * room from the camera or OBS as any room. Asking again answers the same room while it lasts.
 */
export async function goLiveFromShow(
  db: Db,
  seller: User,
  id: string,
  restreamAllowedHosts: string[],
): Promise<{ roomName: string; stream: Stream }> {
  const roomName = await db.transaction(async (tx) => {
    const show = await lockShow(tx, id);
    if (!show) throw notFound('Show not found');
    if (show.seller_id !== seller.id) throw forbidden('Only the show’s seller can do that');
    if (show.status === 'missed') throw conflict('CONFLICT', 'This show was missed; schedule a new one.');
    const row = await findShowRow(tx, id);
    if (!row) throw notFound('Show not found');
    if (show.status === 'live') {
      if (row.stream_ended || !row.room_name) throw conflict('CONFLICT', 'This show has ended.');
      return row.room_name;
    }
    const stream = await createRoom(
      tx,
      seller,
      { title: row.title, description: row.description, rtmpUrl: null },
      restreamAllowedHosts,
    );
    const record = await findStreamByRoom(tx, stream.roomName);
    if (!record) throw new Error('the room made for the show is gone');
    await fillLineup(tx, record, await showProductIds(tx, id));
    await linkShowToStream(tx, id, stream.id);
    return stream.roomName;
  });
  const record = await findStreamByRoom(db, roomName);
  if (!record) throw notFound('Stream not found');
  return { roomName, stream: toStream(record) };
}
