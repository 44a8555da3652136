import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  notificationListSchema,
  notificationPreferencesSchema,
  notificationsQuerySchema,
  readNotificationsBodySchema,
  unreadSchema,
  unsubscribeQuerySchema,
  unsubscribeResponseSchema,
} from '@streamshop/contract/notifications.ts';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import type { Bell } from './bell.ts';
import {
  getPreferences,
  listNotifications,
  readNotifications,
  setPreferences,
  unsubscribe,
} from './inbox.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/** The bell, preferences and the one-click unsubscribe (issue 29, ADR 0023). */
export const notificationRoutes: FastifyPluginAsyncZod<{ db: Db; bell: Bell; secret: string }> = async (
  app,
  { db, bell, secret },
) => {
  app.get(
    '/api/notifications',
    {
      config: SIGNED_IN,
      schema: { querystring: notificationsQuerySchema, response: { 200: notificationListSchema, ...errors } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listNotifications(db, signedInUser(request).id, request.query.before);
    },
  );

  app.post(
    '/api/notifications/read',
    {
      config: SIGNED_IN,
      schema: { body: readNotificationsBodySchema, response: { 200: unreadSchema, ...errors } },
    },
    async (request) => {
      const userId = signedInUser(request).id;
      const unread = await readNotifications(db, userId, request.body?.ids);
      await bell.changed(userId).catch(() => {});
      return { unread };
    },
  );

  app.get(
    '/api/notification-preferences',
    { config: SIGNED_IN, schema: { response: { 200: notificationPreferencesSchema, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return getPreferences(db, signedInUser(request).id);
    },
  );

  app.put(
    '/api/notification-preferences',
    {
      config: SIGNED_IN,
      schema: {
        body: notificationPreferencesSchema,
        response: { 200: notificationPreferencesSchema, ...errors },
      },
    },
    async (request) => {
      return setPreferences(db, signedInUser(request).id, request.body);
    },
  );

  // One-click unsubscribe (RFC 8058): mail providers POST `List-Unsubscribe=One-Click` as a form,
  // without a session; the token alone says who and what. Its own scope, for the form parser.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, body),
    );
    scope.post(
      '/api/notifications/unsubscribe',
      {
        schema: {
          querystring: unsubscribeQuerySchema,
          response: { 200: unsubscribeResponseSchema, ...errors },
        },
      },
      async (request) => {
        return { kind: await unsubscribe(db, secret, request.query.token), email: false as const };
      },
    );
  });
};
