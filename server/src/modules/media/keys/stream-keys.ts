import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Plan } from '@streamshop/contract/constants.ts';
import { ENCODER_SETTINGS, type Ingest, PLAN_VIDEO } from '@streamshop/contract/ingest.ts';
import type { Db } from '../../../db/client.ts';
import { notFound } from '../../../platform/errors.ts';
import {
  ensureStreamKey,
  replaceStreamKey,
  type StreamKeyRecord,
  streamKeyOfRoom,
  streamOfKeyHash,
} from './repo.ts';

/**
 * Stream keys are not stored (ADR 0013): a key is HMAC(SESSION_SECRET, stream id and a random
 * nonce), 24 bytes, URL-safe (it travels as the last part of an RTMP URL); the stream row keeps the
 * nonce, to show the owner their key again, and the key's SHA-256, to find the stream an encoder
 * publishes to. A copy of the database alone gives no key.
 */
const streamKeyOf = (secret: string, streamId: string, nonce: string) =>
  `sk_${createHmac('sha256', secret).update(`stream-key:${streamId}:${nonce}`).digest().subarray(0, 24).toString('base64url')}`;

export const keyHashOf = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** A new key for the stream: its nonce and hash (to store) and the key itself (to show once made). */
function newKey(secret: string, streamId: string) {
  const nonce = randomBytes(16).toString('base64url');
  const key = streamKeyOf(secret, streamId, nonce);
  return { nonce, hash: keyHashOf(key), key };
}

/** The stream's key now, if it has one that this SESSION_SECRET makes (a key from before 0017 as it was). */
function currentKey(secret: string, record: StreamKeyRecord): string | undefined {
  if (record.keyNonce) {
    const key = streamKeyOf(secret, record.streamId, record.keyNonce);
    // Another SESSION_SECRET made it: that key cannot be shown, so the stream gets a new one.
    return keyHashOf(key) === record.keyHash ? key : undefined;
  }
  return record.legacyKey ?? undefined;
}

/** The stream an encoder publishing with `key` feeds, if any. */
export const streamOfKey = (db: Db, key: string) => streamOfKeyHash(db, keyHashOf(key));

/** A stream key as it may appear in a log line: its first characters only. */
export const keyHint = (key: string) => `${key.slice(0, 6)}…`;

const planOf = (plan: string): Plan => (plan === 'pro' ? 'pro' : 'free');

/** The room's stream-key record when `userId` owns it; 404 for anyone else (the key is not theirs to know of). */
async function ownStreamKey(db: Db, userId: string, roomName: string): Promise<StreamKeyRecord> {
  const record = await streamKeyOfRoom(db, roomName);
  if (!record || record.ownerId !== userId) throw notFound('Stream not found');
  return record;
}

function answer(record: StreamKeyRecord, streamKey: string, rtmpUrl: string): Ingest {
  const video = PLAN_VIDEO[planOf(record.plan)];
  return {
    rtmpUrl,
    streamKey,
    encoderConnected: record.encoderConnected,
    encoderLeftAt:
      record.isActive && !record.ended && !record.encoderConnected
        ? (record.encoderLeftAt?.toISOString() ?? null)
        : null,
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
export async function streamKeyFor(
  db: Db,
  secret: string,
  userId: string,
  roomName: string,
  rtmpUrl: string,
): Promise<Ingest> {
  let record = await ownStreamKey(db, userId, roomName);
  let key = currentKey(secret, record);
  if (key) return answer(record, key, rtmpUrl);
  if (record.keyNonce) {
    const fresh = newKey(secret, record.streamId);
    await replaceStreamKey(db, record.streamId, fresh);
    return answer(record, fresh.key, rtmpUrl);
  }
  record = await ensureStreamKey(db, record.streamId, newKey(secret, record.streamId));
  key = currentKey(secret, record);
  if (!key) throw new Error('a stream key was made with another SESSION_SECRET at the same moment');
  return answer(record, key, rtmpUrl);
}

/** POST /api/streams/:name/ingest/rotate: a new key; the old one stops working at once. */
export async function rotateStreamKey(
  db: Db,
  userId: string,
  roomName: string,
  rtmpUrl: string,
  secret: string,
): Promise<Ingest> {
  const record = await ownStreamKey(db, userId, roomName);
  const fresh = newKey(secret, record.streamId);
  await replaceStreamKey(db, record.streamId, fresh);
  return answer(record, fresh.key, rtmpUrl);
}
