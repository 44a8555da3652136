import type {
  NotificationKind,
  NotificationList,
  NotificationPreferences,
} from '@streamshop/contract/notifications.ts';
import type { Db } from '../../db/client.ts';
import { badRequest } from '../../platform/errors.ts';
import {
  markRead,
  notificationsOf,
  preferencesOf,
  savePreferences,
  turnOffEmail,
  unreadCount,
} from './repo.ts';
import { readUnsubscribeToken } from './unsubscribe-token.ts';

/** A person's notifications and settings: the bell's list, reading, preferences, unsubscribing. */

export async function listNotifications(db: Db, userId: string, before?: string): Promise<NotificationList> {
  const [notifications, unread] = await Promise.all([
    notificationsOf(db, userId, before),
    unreadCount(db, userId),
  ]);
  return { unread, notifications };
}

/** Marks the given ones read (all, without ids); answers the unread count. */
export async function readNotifications(db: Db, userId: string, ids: string[] | undefined): Promise<number> {
  await markRead(db, userId, ids);
  return unreadCount(db, userId);
}

export function getPreferences(db: Db, userId: string): Promise<NotificationPreferences> {
  return preferencesOf(db, userId);
}

export async function setPreferences(
  db: Db,
  userId: string,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  await savePreferences(db, userId, preferences);
  return preferencesOf(db, userId);
}

/** The one-click unsubscribe: that kind's email off for the token's account; 400 for any other token. */
export async function unsubscribe(db: Db, secret: string, token: string): Promise<NotificationKind> {
  const target = readUnsubscribeToken(secret, token);
  if (!target || !(await turnOffEmail(db, target.userId, target.kind))) {
    throw badRequest('This unsubscribe link is not valid', { token: 'is not valid' });
  }
  return target.kind;
}
