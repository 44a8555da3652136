import type { Db } from '../../db/client.ts';
import { forbidden, notFound, unauthorized } from '../../platform/errors.ts';
import { findStreamByRoom, type StreamRecord } from '../streams/service.ts';
import { isModeratorOf } from './repo.ts';

/** Whether the user runs this seller's rooms: the seller, or a moderator the seller appointed. */
export async function canRunRoom(db: Db, ownerId: string, userId: string | undefined): Promise<boolean> {
  if (!userId) return false;
  if (userId === ownerId) return true;
  return isModeratorOf(db, ownerId, userId);
}

/** The stream of a room for a change to its shop: 401 signed out, 404 unknown, 403 not its seller or moderator. */
export async function roomRunBy(db: Db, roomName: string, userId: string | undefined): Promise<StreamRecord> {
  if (!userId) throw unauthorized();
  const stream = await findStreamByRoom(db, roomName);
  if (!stream) throw notFound('Stream not found');
  if (!(await canRunRoom(db, stream.owner_id, userId))) {
    throw forbidden('Only the seller and their moderators can run this room’s shop');
  }
  return stream;
}

/** The stream of a room for a change only its seller may make (offers): moderators get 403. */
export async function roomOwnedBy(
  db: Db,
  roomName: string,
  userId: string | undefined,
): Promise<StreamRecord> {
  if (!userId) throw unauthorized();
  const stream = await findStreamByRoom(db, roomName);
  if (!stream) throw notFound('Stream not found');
  if (stream.owner_id !== userId) {
    throw forbidden('Only the seller can start or end offers; moderators can line up and pin');
  }
  return stream;
}
