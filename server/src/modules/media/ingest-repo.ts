import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** RTMP ingest's queries: a stream's key, who publishes with it, and whether an encoder is on. */

export interface IngestRecord {
  streamId: string;
  roomName: string;
  ownerId: string;
  plan: string;
  ingestKey: string | null;
  encoderConnected: boolean;
  isActive: boolean;
  ended: boolean;
}

const INGEST_COLUMNS = sql.raw(`s.id, s.room_name, s.owner_id, u.plan, s.ingest_key,
  s.encoder_connected_at is not null as encoder_connected, s.is_active, s.ended_at is not null as ended`);

type IngestRow = {
  id: string;
  room_name: string;
  owner_id: string;
  plan: string;
  ingest_key: string | null;
  encoder_connected: boolean;
  is_active: boolean;
  ended: boolean;
};

const toRecord = (row: IngestRow): IngestRecord => ({
  streamId: row.id,
  roomName: row.room_name,
  ownerId: row.owner_id,
  plan: row.plan,
  ingestKey: row.ingest_key,
  encoderConnected: row.encoder_connected,
  isActive: row.is_active,
  ended: row.ended,
});

async function ingestWhere(db: Db, condition: SQL): Promise<IngestRecord | undefined> {
  const result = await db.execute<IngestRow>(sql`
    select ${INGEST_COLUMNS} from streams s join users u on u.id = s.owner_id where ${condition}`);
  const row = result.rows[0];
  return row && toRecord(row);
}

export const ingestOfRoom = (db: Db, roomName: string) => ingestWhere(db, sql`s.room_name = ${roomName}`);

/** The stream an encoder publishes to with `key`, if any. */
export const ingestOfKey = (db: Db, key: string) => ingestWhere(db, sql`s.ingest_key = ${key}`);

/** Gives the stream `key` unless it has one already; answers the key it has now. */
export async function ensureIngestKey(db: Db, streamId: string, key: string): Promise<string> {
  const result = await db.execute<{ ingest_key: string }>(sql`
    update streams set ingest_key = coalesce(ingest_key, ${key}) where id = ${streamId}
    returning ingest_key`);
  const row = result.rows[0];
  if (!row) throw new Error('stream vanished while giving it an ingest key');
  return row.ingest_key;
}

export async function replaceIngestKey(db: Db, streamId: string, key: string): Promise<void> {
  await db.execute(sql`update streams set ingest_key = ${key} where id = ${streamId}`);
}

export async function setEncoderConnected(db: Db, roomName: string, connected: boolean): Promise<void> {
  await db.execute(sql`
    update streams set encoder_connected_at = ${connected ? sql`coalesce(encoder_connected_at, now())` : null}
    where room_name = ${roomName}`);
}
