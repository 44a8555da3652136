import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '@streamshop/contract/notifications.ts';

/**
 * The one-click unsubscribe token of a notification email (RFC 8058): the person, the kind, and an
 * HMAC of both under the session secret. It needs no session and does one thing: turn off that
 * kind's email for that person.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const mac = (secret: string, userId: string, kind: NotificationKind) =>
  createHmac('sha256', secret).update(`unsubscribe:${userId}:${kind}`).digest('base64url');

export function unsubscribeToken(secret: string, userId: string, kind: NotificationKind): string {
  return `${userId}.${kind}.${mac(secret, userId, kind)}`;
}

/** The person and kind a token names, or undefined when it is not one this server made. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: string; kind: NotificationKind } | undefined {
  const [userId, kind, signature, ...rest] = token.split('.');
  if (rest.length > 0 || !userId || !kind || !signature || !UUID.test(userId)) return undefined;
  if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind)) return undefined;
  const expected = Buffer.from(mac(secret, userId, kind as NotificationKind));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { userId, kind: kind as NotificationKind };
}
