import { z } from 'zod';

/**
 * Notifications (issue 29, ADR 0023): in the app (the bell) and by email, per kind and channel.
 * `live`: a followed seller went live. `reminder`: a show one asked to be reminded of starts in
 * 15 minutes or went live. One notification per person per event, however many rules apply.
 */

export const NOTIFICATION_KINDS = ['live', 'reminder'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** GET /api/notifications answers at most this many, newest first. */
export const NOTIFICATIONS_PAGE_LIMIT = 50;

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** What happened, as one line ("@crates is live now: Friday digs"). */
  text: z.string(),
  /** Where it leads on this site (a room, a show). */
  link: z.string(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListSchema = z.object({
  unread: z.number().int(),
  notifications: z.array(notificationSchema),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const notificationsQuerySchema = z.object({
  /** Only those older than this notification (the next page). */
  before: z.uuid({ error: 'before must be a notification id' }).optional(),
});

/** POST /api/notifications/read: the given ones, or every one when `ids` is left out. */
export const readNotificationsBodySchema = z.object({
  ids: z
    .array(z.uuid({ error: 'ids must hold notification ids' }), { error: 'ids must be a list' })
    .min(1, 'ids must name at least one notification')
    .max(NOTIFICATIONS_PAGE_LIMIT, `ids names at most ${NOTIFICATIONS_PAGE_LIMIT} notifications`)
    .optional(),
});
export type ReadNotificationsBody = z.input<typeof readNotificationsBodySchema>;

export const unreadSchema = z.object({ unread: z.number().int() });

const channelsSchema = z.object({
  email: z.boolean({ error: 'email must be true or false' }),
  inApp: z.boolean({ error: 'inApp must be true or false' }),
});

/** GET/PUT /api/notification-preferences. */
export const notificationPreferencesSchema = z.object({
  live: channelsSchema,
  reminder: channelsSchema,
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  live: { email: true, inApp: true },
  reminder: { email: true, inApp: true },
};

/** The one-click unsubscribe (RFC 8058): its token names the person and the kind. */
export const unsubscribeQuerySchema = z.object({
  token: z
    .string({ error: 'token is required' })
    .min(10, 'token is not valid')
    .max(300, 'token is not valid'),
});
export const unsubscribeResponseSchema = z.object({
  kind: z.enum(NOTIFICATION_KINDS),
  email: z.literal(false),
});

/** What /ws/notifications sends: a nudge to read the unread count again. */
export const notificationNudgeSchema = z.object({
  type: z.literal('notifications'),
  unread: z.number().int(),
});
export type NotificationNudge = z.infer<typeof notificationNudgeSchema>;
