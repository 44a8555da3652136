import type { ChatSettings, Moderator } from '@streamshop/contract/moderation.ts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { iso } from '../../db/time.ts';

/** What a user is in a seller's rooms. */
export type RoomRole = 'owner' | 'moderator' | 'viewer';

export async function roleInRooms(db: Db, ownerId: string, userId: string): Promise<RoomRole> {
  if (userId === ownerId) return 'owner';
  return (await isModerator(db, ownerId, userId)) ? 'moderator' : 'viewer';
}

export async function isModerator(db: Db, ownerId: string, userId: string): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from seller_moderators where owner_id = ${ownerId} and user_id = ${userId}`,
  );
  return result.rows.length > 0;
}

export async function findUserIdByHandle(db: Db, handle: string): Promise<string | undefined> {
  const result = await db.execute<{ id: string }>(sql`select id from users where handle = ${handle}`);
  return result.rows[0]?.id;
}

/** The owner's moderators, in the order they were appointed. */
export async function listModerators(db: Db, ownerId: string): Promise<Moderator[]> {
  const result = await db.execute<{ handle: string; created_at: Date | string }>(sql`
    select u.handle, m.created_at from seller_moderators m join users u on u.id = m.user_id
    where m.owner_id = ${ownerId} order by m.created_at, u.handle`);
  return result.rows.map((row) => ({ handle: row.handle, addedAt: iso(row.created_at) }));
}

/** Appoints a moderator; undefined when they already are one. */
export async function insertModerator(
  db: Db,
  ownerId: string,
  userId: string,
): Promise<Moderator | undefined> {
  const result = await db.execute<{ handle: string; created_at: Date | string }>(sql`
    with added as (
      insert into seller_moderators (owner_id, user_id) values (${ownerId}, ${userId})
      on conflict do nothing returning user_id, created_at)
    select u.handle, added.created_at from added join users u on u.id = added.user_id`);
  const row = result.rows[0];
  return row ? { handle: row.handle, addedAt: iso(row.created_at) } : undefined;
}

export async function deleteModerator(db: Db, ownerId: string, handle: string): Promise<boolean> {
  const result = await db.execute(sql`
    delete from seller_moderators m using users u
    where m.owner_id = ${ownerId} and m.user_id = u.id and u.handle = ${handle}
    returning m.user_id`);
  return result.rows.length > 0;
}

/** The owner's chat rules; a seller who never saved any has slow mode off and no blocked words. */
export async function findChatSettings(db: Db, ownerId: string): Promise<ChatSettings> {
  const result = await db.execute<{ slow_mode_sec: number; blocked_words: string[] }>(sql`
    select slow_mode_sec, blocked_words from chat_settings where owner_id = ${ownerId}`);
  const row = result.rows[0];
  return { slowModeSec: row?.slow_mode_sec ?? 0, blockedWords: row?.blocked_words ?? [] };
}

export async function upsertChatSettings(
  db: Db,
  ownerId: string,
  settings: ChatSettings,
): Promise<ChatSettings> {
  const result = await db.execute<{ slow_mode_sec: number; blocked_words: string[] }>(sql`
    insert into chat_settings (owner_id, slow_mode_sec, blocked_words)
    values (${ownerId}, ${settings.slowModeSec}, ${sql.param(settings.blockedWords)}::text[])
    on conflict (owner_id) do update
      set slow_mode_sec = excluded.slow_mode_sec, blocked_words = excluded.blocked_words, updated_at = now()
    returning slow_mode_sec, blocked_words`);
  const stored = result.rows[0];
  const row = stored && { slowModeSec: stored.slow_mode_sec, blockedWords: stored.blocked_words };
  if (!row) throw new Error('upsert returned no row');
  return row;
}
