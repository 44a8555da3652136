import {
  accountExportSchema,
  accountOverviewSchema,
  accountSessionsResponseSchema,
  changeEmailBodySchema,
  changeEmailResponseSchema,
  changePasswordBodySchema,
  changePasswordResponseSchema,
  confirmEmailBodySchema,
  confirmEmailResponseSchema,
  deleteAccountBodySchema,
  deleteAccountResponseSchema,
  exportFileName,
  profileBodySchema,
  sessionIdParamsSchema,
  sessionsEndedResponseSchema,
} from '@streamshop/contract/account.ts';
import { userSchema } from '@streamshop/contract/auth.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { addressBucket } from '../../platform/address-bucket.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import type { RoomHub } from '../../platform/room-hub.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import type { StorageRemovals } from '../../platform/storage-removals.ts';
import { AccountTokens } from '../auth/service.ts';
import { assertOwnUpload } from '../catalog/service.ts';
import {
  accountOverview,
  changePassword,
  changeProfile,
  confirmEmailChange,
  deleteAccount,
  exportAccount,
  listSessions,
  requestEmailChange,
  type SessionsContext,
  sessionHashOf,
} from './service.ts';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema };

/** The settings page's endpoints (/api/account/*): the signed-in account's own. */
export const accountRoutes: FastifyPluginAsyncZod<{
  db: Db;
  limiter: RateLimiter;
  mailer: Mailer;
  hub: RoomHub;
  /** Where a deleted account's videos and images are removed from. */
  storageRemovals: StorageRemovals;
  /** SESSION_SECRET: keys the mailed links' HMACs and the sessions' public ids. */
  secret: string;
  publicUrl: string;
  sessionIdleTimeoutMs: number;
}> = async (app, { db, limiter, mailer, hub, storageRemovals, secret, publicUrl, sessionIdleTimeoutMs }) => {
  const mail = { mailer, tokens: new AccountTokens(secret), publicUrl };
  const sessions: SessionsContext = { secret, idleTimeoutMs: sessionIdleTimeoutMs };

  app.get(
    '/api/account',
    { config: SIGNED_IN, schema: { response: { 200: accountOverviewSchema, 401: errorBodySchema } } },
    async (request) => accountOverview(db, signedInUser(request).id),
  );

  app.patch(
    '/api/account/profile',
    {
      config: SIGNED_IN,
      schema: { body: profileBodySchema, response: { 200: userSchema, ...errors } },
    },
    async (request) => {
      const user = signedInUser(request);
      // A picture is an upload of the account's own (400 on profileImageUrl otherwise).
      await assertOwnUpload(db, user.id, request.body.profileImageUrl, {
        publicUrl,
        field: 'profileImageUrl',
        current: user.profileImageUrl,
      });
      return changeProfile(db, user.id, request.body);
    },
  );

  app.post(
    '/api/account/password',
    {
      config: SIGNED_IN,
      schema: { body: changePasswordBodySchema, response: { 200: changePasswordResponseSchema, ...errors } },
    },
    async (request) => {
      const userId = signedInUser(request).id;
      await changePassword(db, mail, limiter, userId, request.body, addressBucket(request.ip));
      // Every other browser of the account is signed out (its sockets close); this one stays.
      const otherSessionsEnded = await app.sessions.endAllOf(userId, request.sessionIdHash);
      return { otherSessionsEnded };
    },
  );

  app.post(
    '/api/account/email',
    {
      config: SIGNED_IN,
      schema: {
        body: changeEmailBodySchema,
        response: { 202: changeEmailResponseSchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await requestEmailChange(
            db,
            mail,
            limiter,
            signedInUser(request).id,
            request.body,
            addressBucket(request.ip),
          ),
        ),
  );

  // The link may be opened in another browser, signed out: the token alone decides.
  app.post(
    '/api/account/email/confirm',
    {
      schema: {
        body: confirmEmailBodySchema,
        response: { 200: confirmEmailResponseSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (request) => confirmEmailChange(db, mail, request.body.token),
  );

  app.get(
    '/api/account/sessions',
    {
      config: SIGNED_IN,
      schema: { response: { 200: accountSessionsResponseSchema, 401: errorBodySchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        sessions: await listSessions(db, sessions, signedInUser(request).id, request.sessionIdHash),
      };
    },
  );

  app.post(
    '/api/account/sessions/sign-out-others',
    { config: SIGNED_IN, schema: { response: { 200: sessionsEndedResponseSchema, 401: errorBodySchema } } },
    async (request) => ({
      ended: await app.sessions.endAllOf(signedInUser(request).id, request.sessionIdHash),
    }),
  );

  app.delete(
    '/api/account/sessions/:id',
    {
      config: SIGNED_IN,
      schema: {
        params: sessionIdParamsSchema,
        response: { 200: sessionsEndedResponseSchema, 404: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const userId = signedInUser(request).id;
      const idHash = await sessionHashOf(db, sessions, userId, request.params.id);
      if (!idHash) throw notFound('No such session (it may have ended already)');
      if (idHash === request.sessionIdHash) {
        throw badRequest('This is the session you are using: sign out instead');
      }
      return { ended: (await app.sessions.endOneOf(userId, idHash)) ? 1 : 0 };
    },
  );

  app.get(
    '/api/account/export',
    { config: SIGNED_IN, schema: { response: { 200: accountExportSchema, 401: errorBodySchema } } },
    async (request, reply) => {
      const user = signedInUser(request);
      const file = exportFileName(user.handle, new Date().toISOString().slice(0, 10));
      reply
        .header('content-disposition', `attachment; filename="${file}"`)
        .header('cache-control', 'no-store');
      return exportAccount(db, user.id);
    },
  );

  app.post(
    '/api/account/delete',
    {
      config: SIGNED_IN,
      schema: {
        body: deleteAccountBodySchema,
        response: { 200: deleteAccountResponseSchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request, reply) => {
      const userId = signedInUser(request).id;
      const deleted = await deleteAccount(db, mail, limiter, userId, request.body, addressBucket(request.ip));
      await Promise.all(
        deleted.endedLiveRooms.map((roomName) => hub.publish(roomName, { type: 'stream_ended' })),
      );
      await app.sessions.endAllOf(userId, null);
      await app.sessions.end(reply, null);
      // Its files were queued with the deletion: removed now, or retried until storage answers.
      storageRemovals.kick();
      return { ok: true as const };
    },
  );
};
