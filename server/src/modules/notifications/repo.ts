import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATIONS_PAGE_LIMIT,
  type Notification,
  type NotificationKind,
  type NotificationPreferences,
} from '@streamshop/contract/notifications.ts';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { iso } from '../../db/time.ts';

/** The notifications' queries (ADR 0023): the bell, preferences, and the fan-out's events. */

type Executor = Pick<Db, 'execute'>;
const uuids = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

// ---------------------------------------------------------------------------------------------
// The bell

type NotificationRow = {
  id: string;
  kind: NotificationKind;
  text: string;
  link: string;
  created_at: Date | string;
  read_at: Date | string | null;
};

export async function notificationsOf(
  db: Executor,
  userId: string,
  before?: string,
): Promise<Notification[]> {
  const result = await db.execute<NotificationRow>(sql`
    select id, kind, text, link, created_at, read_at from notifications
    where user_id = ${userId}
      ${
        before
          ? sql`and (created_at, id) < (select created_at, id from notifications where id = ${before} and user_id = ${userId})`
          : sql``
      }
    order by created_at desc, id desc limit ${NOTIFICATIONS_PAGE_LIMIT}`);
  return result.rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    text: row.text,
    link: row.link,
    createdAt: iso(row.created_at),
    read: row.read_at !== null,
  }));
}

export async function unreadCount(db: Executor, userId: string): Promise<number> {
  const result = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from notifications where user_id = ${userId} and read_at is null`,
  );
  return result.rows[0]?.n ?? 0;
}

/** Marks the given notifications of the user read (all of them when `ids` is undefined). */
export async function markRead(db: Executor, userId: string, ids: string[] | undefined): Promise<void> {
  await db.execute(sql`
    update notifications set read_at = now()
    where user_id = ${userId} and read_at is null ${ids ? sql`and id in (${uuids(ids)})` : sql``}`);
}

// ---------------------------------------------------------------------------------------------
// Preferences

type PreferencesRow = {
  user_id: string;
  live_email: boolean;
  live_in_app: boolean;
  reminder_email: boolean;
  reminder_in_app: boolean;
};

const toPreferences = (row: PreferencesRow | undefined): NotificationPreferences =>
  row
    ? {
        live: { email: row.live_email, inApp: row.live_in_app },
        reminder: { email: row.reminder_email, inApp: row.reminder_in_app },
      }
    : DEFAULT_NOTIFICATION_PREFERENCES;

export async function preferencesOf(db: Executor, userId: string): Promise<NotificationPreferences> {
  const result = await db.execute<PreferencesRow>(
    sql`select * from notification_preferences where user_id = ${userId}`,
  );
  return toPreferences(result.rows[0]);
}

export async function savePreferences(
  db: Executor,
  userId: string,
  p: NotificationPreferences,
): Promise<void> {
  await db.execute(sql`
    insert into notification_preferences (user_id, live_email, live_in_app, reminder_email, reminder_in_app)
    values (${userId}, ${p.live.email}, ${p.live.inApp}, ${p.reminder.email}, ${p.reminder.inApp})
    on conflict (user_id) do update set live_email = excluded.live_email, live_in_app = excluded.live_in_app,
      reminder_email = excluded.reminder_email, reminder_in_app = excluded.reminder_in_app, updated_at = now()`);
}

/** Turns off one kind's email for the user (the one-click unsubscribe); other settings stay. */
export async function turnOffEmail(db: Executor, userId: string, kind: NotificationKind): Promise<boolean> {
  const exists = await db.execute(sql`select 1 from users where id = ${userId} and deleted_at is null`);
  if (exists.rows.length === 0) return false;
  const column = kind === 'live' ? sql.raw('live_email') : sql.raw('reminder_email');
  await db.execute(sql`
    insert into notification_preferences (user_id, ${column}) values (${userId}, false)
    on conflict (user_id) do update set ${column} = false, updated_at = now()`);
  return true;
}

// ---------------------------------------------------------------------------------------------
// The fan-out (ADR 0023)

export interface FanoutEvent {
  eventKey: string;
  sellerId: string;
  showId: string | null;
  text: string;
  link: string;
  subject: string;
}

/** Which of these event keys already have a fan-out. */
export async function existingEventKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const result = await db.execute<{ event_key: string }>(sql`
    select event_key from notification_fanouts where event_key in (${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )})`);
  return new Set(result.rows.map((row) => row.event_key));
}

/** Writes the event once; a second insert of the same key is a no-op. */
export async function insertFanout(db: Executor, event: FanoutEvent): Promise<void> {
  await db.execute(sql`
    insert into notification_fanouts (event_key, seller_id, show_id, text, link, subject)
    values (${event.eventKey}, ${event.sellerId}, ${event.showId}, ${event.text}, ${event.link}, ${event.subject})
    on conflict (event_key) do nothing`);
}

export type ClaimedFanout = {
  id: string;
  event_key: string;
  seller_id: string;
  show_id: string | null;
  text: string;
  link: string;
  subject: string;
  cursor: string | null;
  lease_token: number;
};

/** Claims the oldest unfinished event whose lease is free for `leaseSec`; bumps its token. */
export async function claimFanout(db: Executor, leaseSec: number): Promise<ClaimedFanout | undefined> {
  const result = await db.execute<ClaimedFanout>(sql`
    update notification_fanouts
    set lease_token = lease_token + 1, leased_until = now() + make_interval(secs => ${leaseSec})
    where id = (
      select id from notification_fanouts
      where done_at is null and (leased_until is null or leased_until < now())
      order by created_at limit 1 for update skip locked)
    returning id, event_key, seller_id, show_id, text, link, subject, cursor, lease_token`);
  return result.rows[0];
}

/**
 * Moves the event's cursor past a batch and renews its lease, only while the claim is still this
 * worker's (same token): false means another worker took it over, and the batch must roll back.
 */
export async function advanceFanout(
  tx: Tx,
  claim: { id: string; token: number },
  cursor: string,
  notified: number,
  leaseSec: number,
): Promise<boolean> {
  const result = await tx.execute(sql`
    update notification_fanouts
    set cursor = ${cursor}, notified = notified + ${notified},
      leased_until = now() + make_interval(secs => ${leaseSec})
    where id = ${claim.id} and lease_token = ${claim.token} and done_at is null
    returning id`);
  return result.rows.length > 0;
}

export async function finishFanout(db: Executor, claim: { id: string; token: number }): Promise<void> {
  await db.execute(sql`
    update notification_fanouts set done_at = now(), leased_until = null
    where id = ${claim.id} and lease_token = ${claim.token}`);
}

export type Recipient = {
  id: string;
  email: string;
  email_verified: boolean;
  live_email: boolean | null;
  live_in_app: boolean | null;
  reminder_email: boolean | null;
  reminder_in_app: boolean | null;
};

/** The recipients' addresses and preferences (accounts deleted since are left out). */
export async function recipientsOf(tx: Executor, ids: string[]): Promise<Recipient[]> {
  if (ids.length === 0) return [];
  const result = await tx.execute<Recipient>(sql`
    select u.id, u.email, u.email_verified_at is not null as email_verified,
      p.live_email, p.live_in_app, p.reminder_email, p.reminder_in_app
    from users u left join notification_preferences p on p.user_id = u.id
    where u.id in (${uuids(ids)}) and u.deleted_at is null`);
  return result.rows;
}

/** Inserts one notification per person for the event (none twice); answers who got a new one. */
export async function insertNotifications(
  tx: Executor,
  event: { eventKey: string; text: string; link: string },
  people: Array<{ userId: string; kind: NotificationKind }>,
): Promise<string[]> {
  if (people.length === 0) return [];
  const result = await tx.execute<{ user_id: string }>(sql`
    insert into notifications (user_id, event_key, kind, text, link)
    values ${sql.join(
      people.map((p) => sql`(${p.userId}, ${event.eventKey}, ${p.kind}, ${event.text}, ${event.link})`),
      sql`, `,
    )}
    on conflict (user_id, event_key) do nothing
    returning user_id`);
  return result.rows.map((row) => row.user_id);
}
