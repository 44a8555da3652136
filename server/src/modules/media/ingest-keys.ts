import { randomBytes } from 'node:crypto';
import type { Plan } from '@streamshop/contract/constants.ts';
import { ENCODER_SETTINGS, type Ingest, PLAN_VIDEO } from '@streamshop/contract/ingest.ts';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { ensureIngestKey, type IngestRecord, ingestOfRoom, replaceIngestKey } from './ingest-repo.ts';

/** A new stream key: 24 random bytes, URL-safe (it travels as the last part of an RTMP URL). */
export const newIngestKey = () => `sk_${randomBytes(24).toString('base64url')}`;

/** A stream key as it may appear in a log line: its first characters only. */
export const keyHint = (key: string) => `${key.slice(0, 6)}…`;

const planOf = (plan: string): Plan => (plan === 'pro' ? 'pro' : 'free');

/** The room's ingest record when `userId` owns it; 404 for anyone else (the key is not theirs to know of). */
async function ownIngest(db: Db, userId: string, roomName: string): Promise<IngestRecord> {
  const record = await ingestOfRoom(db, roomName);
  if (!record || record.ownerId !== userId) throw notFound('Stream not found');
  return record;
}

function answer(record: IngestRecord, streamKey: string, rtmpUrl: string): Ingest {
  const video = PLAN_VIDEO[planOf(record.plan)];
  return {
    rtmpUrl,
    streamKey,
    encoderConnected: record.encoderConnected,
    settings: {
      ...ENCODER_SETTINGS,
      maxWidth: video.width,
      maxHeight: video.height,
      resolution: video.label,
      bitrateKbps: video.bitrateKbps,
    },
  };
}

/** GET /api/streams/:name/ingest: where the owner's encoder publishes, made on first ask. */
export async function ingestFor(db: Db, userId: string, roomName: string, rtmpUrl: string): Promise<Ingest> {
  const record = await ownIngest(db, userId, roomName);
  const key = record.ingestKey ?? (await ensureIngestKey(db, record.streamId, newIngestKey()));
  return answer(record, key, rtmpUrl);
}

/** POST /api/streams/:name/ingest/rotate: a new key; the old one stops working at once. */
export async function rotateIngestKey(
  db: Db,
  userId: string,
  roomName: string,
  rtmpUrl: string,
): Promise<Ingest> {
  const record = await ownIngest(db, userId, roomName);
  const key = newIngestKey();
  await replaceIngestKey(db, record.streamId, key);
  return answer(record, key, rtmpUrl);
}
