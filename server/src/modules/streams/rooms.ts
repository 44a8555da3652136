import { randomBytes } from 'node:crypto';
import type { User } from '@streamshop/contract/auth.ts';
import type { Stream } from '@streamshop/contract/catalog.ts';
import { PLAN_STREAM_SECONDS } from '@streamshop/contract/constants.ts';
import type { createRoomBodySchema } from '@streamshop/contract/live.ts';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { egressRefusal } from '../../platform/egress.ts';
import { AppError, badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { findStreamByRoom, insertStream, markEnded, markStarted, type StreamRecord } from './repo.ts';
import { toStream } from './stream-view.ts';

export type CreateRoomInput = z.output<typeof createRoomBodySchema>;

/** URL-safe and unique: a slug of the title plus 8 random hex characters. */
export function roomNameFor(title: string): string {
  const slug = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return `${slug || 'live'}-${randomBytes(4).toString('hex')}`;
}

export async function createRoom(
  db: Db | Tx,
  user: User,
  input: CreateRoomInput,
  restreamAllowedHosts: string[],
): Promise<Stream> {
  if (input.rtmpUrl && user.plan !== 'pro') {
    throw forbidden('Streaming to external platforms (RTMP) is a Pro feature. Upgrade to Pro to use it.');
  }
  if (input.rtmpUrl) {
    const refusal = await egressRefusal(input.rtmpUrl, restreamAllowedHosts);
    if (refusal) throw badRequest(`Invalid rtmpUrl: ${refusal}`, { rtmpUrl: refusal });
  }
  const roomName = roomNameFor(input.title);
  await insertStream(db, {
    ownerId: user.id,
    roomName,
    title: input.title,
    description: input.description,
    rtmpUrl: input.rtmpUrl,
    durationSec: PLAN_STREAM_SECONDS[user.plan],
    plan: user.plan,
  });
  return toStream(await mustFind(db, roomName));
}

async function mustFind(db: Db | Tx, roomName: string): Promise<StreamRecord> {
  const stream = await findStreamByRoom(db, roomName);
  if (!stream) throw notFound('Stream not found');
  return stream;
}

async function ownStream(db: Db, userId: string, roomName: string): Promise<StreamRecord> {
  const stream = await mustFind(db, roomName);
  if (stream.owner_id !== userId) throw forbidden('Only the stream’s owner can do that');
  return stream;
}

/**
 * Goes live: the plan's clock starts now, and the server ends the stream at endsAt whatever the
 * broadcaster does. Starting an ended stream is refused; starting a live one is a no-op.
 */
export async function startStream(db: Db, userId: string, roomName: string): Promise<Stream> {
  const stream = await ownStream(db, userId, roomName);
  if (stream.ended_at) throw new AppError(409, 'CONFLICT', 'This stream has ended; create a new one');
  if (!stream.is_active) {
    await markStarted(db, stream.id);
  }
  return toStream(await mustFind(db, roomName));
}

/** Ends the owner's stream; ending an ended stream is a no-op. */
export async function endStream(db: Db, userId: string, roomName: string): Promise<Stream> {
  const stream = await ownStream(db, userId, roomName);
  await markEnded(db, stream.id);
  return toStream(await mustFind(db, roomName));
}

export async function getRoom(db: Db, roomName: string): Promise<Stream> {
  return toStream(await mustFind(db, roomName));
}
