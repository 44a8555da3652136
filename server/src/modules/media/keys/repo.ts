import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';

/** Stream keys' queries: a stream's key, who publishes with it, and whether an encoder is on or away. */

export interface StreamKeyRecord {
  streamId: string;
  roomName: string;
  ownerId: string;
  plan: string;
  /** A key from before keys stopped being stored (migration 0017); null for every newer one. */
  legacyKey: string | null;
  /** What the key is derived from, with SESSION_SECRET and the stream's id; null before the first ask. */
  keyNonce: string | null;
  keyHash: string | null;
  encoderConnected: boolean;
  /** When the stream's encoder left; null while one publishes, or when none ever did. */
  encoderLeftAt: Date | null;
  isActive: boolean;
  ended: boolean;
}

const KEY_COLUMNS =
  sql.raw(`s.id, s.room_name, s.owner_id, s.plan, s.ingest_key, s.ingest_key_nonce, s.ingest_key_hash,
  s.encoder_connected_at is not null as encoder_connected, s.encoder_left_at, s.is_active,
  s.ended_at is not null as ended`);

type StreamKeyRow = {
  id: string;
  room_name: string;
  owner_id: string;
  plan: string;
  ingest_key: string | null;
  ingest_key_nonce: string | null;
  ingest_key_hash: string | null;
  encoder_connected: boolean;
  encoder_left_at: Date | string | null;
  is_active: boolean;
  ended: boolean;
};

const toRecord = (row: StreamKeyRow): StreamKeyRecord => ({
  streamId: row.id,
  roomName: row.room_name,
  ownerId: row.owner_id,
  plan: row.plan,
  legacyKey: row.ingest_key,
  keyNonce: row.ingest_key_nonce,
  keyHash: row.ingest_key_hash,
  encoderConnected: row.encoder_connected,
  encoderLeftAt: row.encoder_left_at === null ? null : new Date(row.encoder_left_at),
  isActive: row.is_active,
  ended: row.ended,
});

async function streamKeyWhere(db: Db, condition: SQL): Promise<StreamKeyRecord | undefined> {
  const result = await db.execute<StreamKeyRow>(sql`
    select ${KEY_COLUMNS} from streams s where ${condition}`);
  const row = result.rows[0];
  return row && toRecord(row);
}

export const streamKeyOfRoom = (db: Db, roomName: string) =>
  streamKeyWhere(db, sql`s.room_name = ${roomName}`);

/** The stream an encoder publishes to with the key of this hash, if any. */
export const streamOfKeyHash = (db: Db, keyHash: string) =>
  streamKeyWhere(db, sql`s.ingest_key_hash = ${keyHash}`);

/**
 * Gives the stream its first key (its nonce and the key's hash) unless it has one already, from
 * this request or a concurrent one; answers the stream as it is now.
 */
export async function ensureStreamKey(
  db: Db,
  streamId: string,
  key: { nonce: string; hash: string },
): Promise<StreamKeyRecord> {
  await db.execute(sql`
    update streams set ingest_key_nonce = ${key.nonce}, ingest_key_hash = ${key.hash}
    where id = ${streamId} and ingest_key_nonce is null and ingest_key is null`);
  const record = await streamKeyWhere(db, sql`s.id = ${streamId}`);
  if (!record) throw new Error('stream vanished while giving it a stream key');
  return record;
}

/** A new key: the old one (and a key from before 0017) stops working at once. */
export async function replaceStreamKey(db: Db, streamId: string, key: { nonce: string; hash: string }) {
  await db.execute(sql`
    update streams set ingest_key = null, ingest_key_nonce = ${key.nonce}, ingest_key_hash = ${key.hash}
    where id = ${streamId}`);
}

/** An encoder started publishing the stream, or left it (the time it left is kept for the grace). */
export async function setEncoderConnected(db: Db, roomName: string, connected: boolean): Promise<void> {
  await db.execute(
    connected
      ? sql`update streams set encoder_connected_at = coalesce(encoder_connected_at, now()), encoder_left_at = null
          where room_name = ${roomName}`
      : sql`update streams set encoder_connected_at = null, encoder_left_at = now() where room_name = ${roomName}`,
  );
}
