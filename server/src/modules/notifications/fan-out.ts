import type { NotificationKind } from '@streamshop/contract/notifications.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { LEASE_SEC } from '../../platform/leases.ts';
import type { Mailer, QueuedMessage } from '../../platform/mail/mailer.ts';
import { followersAfter } from '../follows/service.ts';
import { remindedAfter } from '../shows/service.ts';
import {
  advanceFanout,
  type ClaimedFanout,
  claimFanout,
  finishFanout,
  insertNotifications,
  type Recipient,
  recipientsOf,
} from './repo.ts';
import { unsubscribeToken } from './unsubscribe-token.ts';

/** How many people one batch tells: one transaction, one bus message. */
export const FANOUT_BATCH = 500;
/** Embedded PGlite has one connection: a smaller batch holds it for less, so the room's chat waits less (bench notify). */
export const PGLITE_FANOUT_BATCH = 100;

/** The batch size on this kind of database. */
export const fanoutBatchFor = (kind: 'pglite' | 'postgres') =>
  kind === 'pglite' ? PGLITE_FANOUT_BATCH : FANOUT_BATCH;

export interface FanoutDeps {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  publicUrl: string;
  secret: string;
  /** Called after each committed batch with the people who got a new in-app notification. */
  notified: (userIds: string[]) => Promise<void>;
  batchSize?: number;
  /**
   * True once the instance is shutting down: the fan-out stops after the batch under way and its
   * lease runs out, so another instance (or the next start) resumes from the committed cursor.
   */
  stopping?: () => boolean;
}

class LeaseLost extends Error {}

/** The next batch of recipients after `cursor`: the seller's followers and the show's reminders, merged. */
async function nextRecipients(
  db: Db,
  event: ClaimedFanout,
  cursor: string | null,
  size: number,
): Promise<{ ids: string[]; reminded: Set<string> }> {
  const isReminder = event.event_key.startsWith('reminder:');
  const [followers, reminded] = await Promise.all([
    isReminder ? Promise.resolve([]) : followersAfter(db, event.seller_id, cursor, size),
    event.show_id ? remindedAfter(db, event.show_id, cursor, size) : Promise.resolve([]),
  ]);
  // Both lists are in id order from the same cursor: their union's first `size` ids are exact.
  const ids = [...new Set([...followers, ...reminded])].sort().slice(0, size);
  return { ids, reminded: new Set(reminded) };
}

const wants = (person: Recipient, kind: NotificationKind, channel: 'email' | 'in_app') =>
  person[`${kind}_${channel}`] ?? true;

/**
 * Tells everyone of one claimed event, a batch at a time (ADR 0023): each batch's notifications,
 * emails and cursor commit together under the claim's token, so a crash resumes after the last
 * committed batch and a replayed batch adds nothing (one notification and one email per person).
 */
export async function fanOut(deps: FanoutDeps, event: ClaimedFanout): Promise<number> {
  const claim = { id: event.id, token: event.lease_token };
  const size = deps.batchSize ?? FANOUT_BATCH;
  let cursor = event.cursor;
  let total = 0;
  for (;;) {
    if (deps.stopping?.()) return total;
    const { ids, reminded } = await nextRecipients(deps.db, event, cursor, size);
    const last = ids.at(-1);
    if (!last) break;
    const people = ids.filter((id) => id !== event.seller_id);
    const fresh = await deps.db
      .transaction(async (tx) => {
        if (!(await advanceFanout(tx, claim, last, people.length, LEASE_SEC))) throw new LeaseLost();
        const recipients = await recipientsOf(tx, people);
        const kindOf = (id: string): NotificationKind => (reminded.has(id) ? 'reminder' : 'live');
        const inApp = recipients
          .filter((person) => wants(person, kindOf(person.id), 'in_app'))
          .map((person) => ({ userId: person.id, kind: kindOf(person.id) }));
        const added = await insertNotifications(
          tx,
          { eventKey: event.event_key, text: event.text, link: event.link },
          inApp,
        );
        const mails: QueuedMessage[] = recipients
          .filter((person) => person.email_verified && wants(person, kindOf(person.id), 'email'))
          .map((person) => notificationMail(deps, event, person.id, person.email, kindOf(person.id)));
        await deps.mailer.queueMany(tx, mails);
        return added;
      })
      .catch((error) => {
        if (error instanceof LeaseLost) return undefined;
        throw error;
      });
    if (!fresh) return total; // another worker has the event now
    total += people.length;
    cursor = last;
    if (fresh.length > 0) await deps.notified(fresh).catch(() => {});
    // Let the requests that waited for the connection during the batch go first.
    await new Promise((resolve) => setImmediate(resolve));
    if (ids.length < size) break;
  }
  await finishFanout(deps.db, claim);
  return total;
}

function notificationMail(
  deps: FanoutDeps,
  event: ClaimedFanout,
  userId: string,
  to: string,
  kind: NotificationKind,
): QueuedMessage {
  const unsubscribe = new URL(
    `/api/notifications/unsubscribe?token=${unsubscribeToken(deps.secret, userId, kind)}`,
    deps.publicUrl,
  ).toString();
  const page = new URL(`/unsubscribe?token=${unsubscribeToken(deps.secret, userId, kind)}`, deps.publicUrl);
  const what = kind === 'live' ? 'sellers you follow go live' : 'shows you asked to be reminded of';
  return {
    key: `notify:${event.event_key}:${userId}`,
    to,
    body: {
      subject: event.subject,
      heading: event.text,
      paragraphs: [
        kind === 'live'
          ? 'A seller you follow just went live. Join the room to watch, chat and shop.'
          : 'You asked to be reminded of this show.',
      ],
      action: {
        label: kind === 'live' ? 'Watch now' : 'Open the show',
        url: new URL(event.link, deps.publicUrl).toString(),
      },
      after: [`You get this email when ${what}. Unsubscribe: ${page.toString()}`],
    },
    options: { listUnsubscribe: unsubscribe },
  };
}

/** Claims and fans out events until none is left; answers how many people were told. */
export async function fanOutDue(deps: FanoutDeps): Promise<number> {
  let told = 0;
  for (;;) {
    if (deps.stopping?.()) return told;
    const event = await claimFanout(deps.db, LEASE_SEC);
    if (!event) return told;
    told += await fanOut(deps, event);
  }
}
