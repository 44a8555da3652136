import type { ChatMessage, ChatReplay } from '@streamshop/contract/live.ts';
import { CHAT_HISTORY_SIZE, CHAT_REPLAY_LIMIT } from '@streamshop/contract/live.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../catalog/product-row.ts';

type MessageRow = { id: number; username: string; message: string; created_at: Date | string };

const toChatMessage = (row: MessageRow): ChatMessage => ({
  type: 'chat_message',
  id: Number(row.id),
  username: row.username,
  message: row.message,
  timestamp: iso(row.created_at),
});

export async function insertMessage(
  db: Db,
  streamId: string,
  userId: string,
  username: string,
  message: string,
): Promise<ChatMessage> {
  const result = await db.execute<MessageRow>(sql`
    insert into chat_messages (stream_id, user_id, username, message)
    values (${streamId}, ${userId}, ${username}, ${message})
    returning id, username, message, created_at`);
  const row = result.rows[0];
  if (!row) throw new Error('insert returned no row');
  return toChatMessage(row);
}

/** The latest messages of a room, oldest first. */
export async function latestMessages(db: Db, streamId: string): Promise<ChatMessage[]> {
  const result = await db.execute<MessageRow>(sql`
    select id, username, message, created_at from chat_messages where stream_id = ${streamId}
    order by id desc limit ${CHAT_HISTORY_SIZE}`);
  return result.rows.reverse().map(toChatMessage);
}

/** A stream's chat, oldest first, each at its moment from the stream's start (deleted messages are gone). */
export async function replayMessages(db: Db, streamId: string): Promise<ChatReplay['messages']> {
  const result = await db.execute<{ id: number; username: string; message: string; offset_sec: number }>(sql`
    select m.id, m.username, m.message,
      greatest(0, extract(epoch from m.created_at - coalesce(s.started_at, s.created_at)))::float8 as offset_sec
    from chat_messages m join streams s on s.id = m.stream_id
    where m.stream_id = ${streamId}
    order by m.id limit ${CHAT_REPLAY_LIMIT}`);
  return result.rows.map((row) => ({
    id: Number(row.id),
    username: row.username,
    message: row.message,
    offsetSec: Math.round(Number(row.offset_sec) * 10) / 10,
  }));
}

export async function deleteMessage(db: Db, streamId: string, id: number): Promise<boolean> {
  const result = await db.execute(
    sql`delete from chat_messages where id = ${id} and stream_id = ${streamId} returning id`,
  );
  return result.rows.length > 0;
}

export async function isMuted(db: Db, ownerId: string, userId: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from chat_mutes where owner_id = ${ownerId} and user_id = ${userId}`,
  );
  return result.rows.length > 0;
}

/** Mutes a user (by handle) in the owner's rooms; false when there is no such user. */
export async function muteUser(db: Db, ownerId: string, handle: string): Promise<boolean> {
  const result = await db.execute(sql`
    insert into chat_mutes (owner_id, user_id)
    select ${ownerId}, id from users where handle = ${handle} and id <> ${ownerId}
    on conflict do nothing returning user_id`);
  if (result.rows.length > 0) return true;
  const exists = await db.execute(sql`select 1 from users where handle = ${handle}`);
  return exists.rows.length > 0;
}

export async function countView(db: Db, streamId: string): Promise<void> {
  await db.execute(sql`update streams set view_count = view_count + 1 where id = ${streamId}`);
}
