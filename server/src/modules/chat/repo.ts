import type { ChatMessage, ChatReplay } from '@streamshop/contract/live.ts';
import { CHAT_HISTORY_SIZE, CHAT_REPLAY_LIMIT } from '@streamshop/contract/live.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { iso } from '../../db/time.ts';

type MessageRow = {
  id: number;
  username: string;
  message: string;
  created_at: Date | string;
  kind?: 'user' | 'purchase';
};

const toChatMessage = (row: MessageRow): ChatMessage => ({
  type: 'chat_message',
  id: Number(row.id),
  username: row.username,
  message: row.message,
  timestamp: iso(row.created_at),
  ...(row.kind === 'purchase' ? { kind: 'purchase' as const } : {}),
});

/**
 * Reserves `count` message ids from the table's sequence, ascending. A message gets its id when it
 * is accepted, before it is broadcast, so the row written later is the same message (ADR 0019).
 */
export async function reserveMessageIds(db: Db, count: number): Promise<number[]> {
  const result = await db.execute<{ id: number }>(
    sql`select nextval(pg_get_serial_sequence('chat_messages', 'id')) as id from generate_series(1, ${count})`,
  );
  return result.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/** An accepted message as it is written to its row. */
export interface AcceptedMessage {
  id: number;
  streamId: string;
  userId: string;
  username: string;
  message: string;
  /** ISO time it was accepted (the database's clock). */
  createdAt: string;
}

/**
 * Writes accepted messages, each once: a message whose row is already there (a replay of the
 * journal after a crash) is skipped. A message of a stream that is gone is skipped too, and one
 * whose author deleted their account meanwhile is stored under the account's placeholder handle.
 */
export async function saveMessages(db: Db, messages: AcceptedMessage[]): Promise<void> {
  const rows = messages.map((m) => ({
    id: m.id,
    stream_id: m.streamId,
    user_id: m.userId,
    username: m.username,
    message: m.message,
    created_at: m.createdAt,
  }));
  await db.execute(sql`
    insert into chat_messages (id, stream_id, user_id, username, message, created_at)
    overriding system value
    select m.id, m.stream_id, m.user_id,
      case when u.deleted_at is null then m.username else u.handle end, m.message, m.created_at
    from json_to_recordset(${JSON.stringify(rows)}::json)
      as m(id bigint, stream_id uuid, user_id uuid, username text, message text, created_at timestamptz)
    join streams s on s.id = m.stream_id
    join users u on u.id = m.user_id
    on conflict (id) do nothing`);
}

/**
 * The latest saved messages of a room, oldest first. In the order they were accepted: ids are
 * reserved in blocks per instance, so only the time orders messages of several instances.
 */
export async function latestMessages(db: Db, streamId: string): Promise<ChatMessage[]> {
  const result = await db.execute<MessageRow>(sql`
    select id, username, message, created_at, kind from chat_messages where stream_id = ${streamId}
    order by created_at desc, id desc limit ${CHAT_HISTORY_SIZE}`);
  return result.rows.reverse().map(toChatMessage);
}

/** A stream's saved chat, oldest first, each at its moment from the stream's start (deleted messages are gone). */
export async function replayMessages(db: Db, streamId: string): Promise<ChatReplay['messages']> {
  const result = await db.execute<{
    id: number;
    username: string;
    message: string;
    offset_sec: number;
    kind: 'user' | 'purchase';
  }>(sql`
    select m.id, m.username, m.message, m.kind,
      greatest(0, extract(epoch from m.created_at - coalesce(s.started_at, s.created_at)))::float8 as offset_sec
    from chat_messages m join streams s on s.id = m.stream_id
    where m.stream_id = ${streamId}
    order by m.created_at, m.id limit ${CHAT_REPLAY_LIMIT}`);
  return result.rows.map((row) => ({
    id: Number(row.id),
    username: row.username,
    message: row.message,
    offsetSec: Math.round(Number(row.offset_sec) * 10) / 10,
    ...(row.kind === 'purchase' ? { kind: 'purchase' as const } : {}),
  }));
}

export async function deleteMessage(db: Db, streamId: string, id: number): Promise<boolean> {
  const result = await db.execute(
    sql`delete from chat_messages where id = ${id} and stream_id = ${streamId} returning id`,
  );
  return result.rows.length > 0;
}

/**
 * What the server needs to judge a message before accepting it, in one round trip: whether the
 * sender is one of the owner's moderators, whether they are banned (mutedUntil null) or timed out (a time) in the owner's rooms, how many seconds
 * slow mode still makes them wait in this room after their saved messages (0 when they may send),
 * the slow mode, the blocked words, and the database's time (the accepted message's time).
 * Time-outs and slow mode go by the database's clock, so every instance agrees.
 */
export interface SenderStanding {
  isModerator: boolean;
  mutedUntil: Date | null | undefined;
  slowModeWaitSec: number;
  slowModeSec: number;
  blockedWords: string[];
  now: Date;
}

export async function senderStanding(
  db: Db,
  stream: { id: string; ownerId: string },
  userId: string,
): Promise<SenderStanding> {
  const result = await db.execute<{
    is_moderator: boolean;
    muted: boolean | null;
    expires_at: Date | string | null;
    blocked_words: string[];
    wait_sec: number | string | null;
    slow_mode_sec: number | null;
    now: Date | string;
  }>(sql`
    select mute.muted, mute.expires_at, cs.slow_mode_sec, now() as now,
      exists (select 1 from seller_moderators where owner_id = ${stream.ownerId} and user_id = ${userId})
        as is_moderator,
      coalesce(cs.blocked_words, '{}'::text[]) as blocked_words,
      (select ceil(extract(epoch from max(m.created_at) + make_interval(secs => cs.slow_mode_sec) - now()))
        from chat_messages m
        where cs.slow_mode_sec > 0 and m.stream_id = ${stream.id} and m.user_id = ${userId}
          and m.kind = 'user' and m.created_at > now() - make_interval(secs => cs.slow_mode_sec)
      ) as wait_sec
    from (select 1) as one
    left join chat_settings cs on cs.owner_id = ${stream.ownerId}
    left join lateral (
      select true as muted, expires_at from chat_mutes
      where owner_id = ${stream.ownerId} and user_id = ${userId} and (expires_at is null or expires_at > now())
    ) as mute on true`);
  const row = result.rows[0];
  return {
    isModerator: row?.is_moderator ?? false,
    mutedUntil: row?.muted ? (row.expires_at === null ? null : new Date(row.expires_at)) : undefined,
    slowModeWaitSec: Math.max(0, Number(row?.wait_sec ?? 0)),
    slowModeSec: Number(row?.slow_mode_sec ?? 0),
    blockedWords: row?.blocked_words ?? [],
    now: row ? new Date(row.now) : new Date(),
  };
}

/** Who wrote a message of the room: undefined when there is no such message, null for a system line. */
export async function messageAuthor(
  db: Db,
  streamId: string,
  id: number,
): Promise<string | null | undefined> {
  const result = await db.execute<{ user_id: string | null }>(
    sql`select user_id from chat_messages where id = ${id} and stream_id = ${streamId}`,
  );
  return result.rows[0] ? result.rows[0].user_id : undefined;
}

/** A user a moderation action names, and what they are in the owner's rooms. */
export interface ModerationTarget {
  id: string;
  handle: string;
  isOwner: boolean;
  isModerator: boolean;
}

export async function findModerationTarget(
  db: Db,
  ownerId: string,
  handle: string,
): Promise<ModerationTarget | undefined> {
  const result = await db.execute<{ id: string; handle: string; is_moderator: boolean }>(sql`
    select u.id, u.handle,
      exists (select 1 from seller_moderators where owner_id = ${ownerId} and user_id = u.id) as is_moderator
    from users u where u.handle = ${handle}`);
  const row = result.rows[0];
  if (!row) return undefined;
  return { id: row.id, handle: row.handle, isOwner: row.id === ownerId, isModerator: row.is_moderator };
}

/** Bans the user from the owner's rooms until unbanned (a time-out they had becomes a ban). */
export async function banUser(db: Db, ownerId: string, userId: string): Promise<void> {
  await db.execute(sql`
    insert into chat_mutes (owner_id, user_id, expires_at) values (${ownerId}, ${userId}, null)
    on conflict (owner_id, user_id) do update set expires_at = null, created_at = now()`);
}

/** Times the user out of the owner's rooms for `seconds` from now; a ban stays a ban. */
export async function timeOutUser(db: Db, ownerId: string, userId: string, seconds: number): Promise<void> {
  await db.execute(sql`
    insert into chat_mutes (owner_id, user_id, expires_at)
    values (${ownerId}, ${userId}, now() + make_interval(secs => ${seconds}))
    on conflict (owner_id, user_id) do update set expires_at = excluded.expires_at, created_at = now()
    where chat_mutes.expires_at is not null`);
}

/** Lifts a ban or time-out. */
export async function unbanUser(db: Db, ownerId: string, userId: string): Promise<void> {
  await db.execute(sql`delete from chat_mutes where owner_id = ${ownerId} and user_id = ${userId}`);
}

/** A viewer adds one view per stream in this window, however often they reconnect. */
export const VIEW_WINDOW_MINUTES = 30;

/**
 * Counts a view unless this viewer (`viewerKey`: a user, or a keyed hash of an address) was counted
 * for the stream within the window. One statement, so instances racing on one viewer count once.
 */
export async function countView(db: Db, streamId: string, viewerKey: string): Promise<void> {
  await db.execute(sql`
    with counted as (
      insert into stream_views (stream_id, viewer_key) values (${streamId}, ${viewerKey})
      on conflict (stream_id, viewer_key) do update set counted_at = now()
        where stream_views.counted_at < now() - make_interval(mins => ${VIEW_WINDOW_MINUTES})
      returning 1
    )
    update streams set view_count = view_count + 1
    where id = ${streamId} and exists (select 1 from counted)`);
}

/** Every chat message an account posted, oldest first, with its room (the account's data export). */
export async function messagesOfUser(
  db: Db,
  userId: string,
): Promise<{ roomName: string; message: string; kind: string; createdAt: string }[]> {
  const result = await db.execute<{
    room_name: string;
    message: string;
    kind: string;
    created_at: Date | string;
  }>(
    sql`select s.room_name, m.message, m.kind, m.created_at
      from chat_messages m join streams s on s.id = m.stream_id
      where m.user_id = ${userId} order by m.created_at, m.id`,
  );
  return result.rows.map((row) => ({
    roomName: row.room_name,
    message: row.message,
    kind: row.kind,
    createdAt: iso(row.created_at),
  }));
}

/** A deleted account's messages stay in their rooms under its placeholder handle. */
export async function renameAuthor(db: Db | Tx, userId: string, username: string): Promise<void> {
  await db.execute(sql`update chat_messages set username = ${username} where user_id = ${userId}`);
}
