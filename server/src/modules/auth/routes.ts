import {
  passwordResetBodySchema,
  passwordResetRequestBodySchema,
  passwordResetRequestResponseSchema,
  resendVerificationResponseSchema,
  verifyEmailBodySchema,
  verifyEmailResponseSchema,
} from '@streamshop/contract/account-recovery.ts';
import {
  logoutResponseSchema,
  signinBodySchema,
  signupBodySchema,
  userSchema,
} from '@streamshop/contract/auth.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { addressBucket } from '../../platform/address-bucket.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { toUser } from '../../platform/user.ts';
import { AccountTokens } from './account-tokens.ts';
import { requestPasswordReset, resetPassword } from './password-reset.ts';
import { signIn, signUp } from './service.ts';
import { type AccountMail, resendVerification, verifyEmail } from './verification.ts';

/** A top-level navigation started on this site: Sec-Fetch-Dest document and Sec-Fetch-Site same-origin. */
function isOwnNavigation(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['sec-fetch-dest'] === 'document' && headers['sec-fetch-site'] === 'same-origin';
}

export const authRoutes: FastifyPluginAsyncZod<{
  db: Db;
  limiter: RateLimiter;
  mailer: Mailer;
  /** Keys the HMAC of mailed tokens (SESSION_SECRET). */
  secret: string;
  publicUrl: string;
}> = async (app, { db, limiter, mailer, secret, publicUrl }) => {
  const mail: AccountMail = { mailer, tokens: new AccountTokens(secret), publicUrl };

  app.post(
    '/api/auth/signup',
    {
      schema: {
        body: signupBodySchema,
        response: { 201: userSchema, 400: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = await signUp(db, limiter, mail, request.body, addressBucket(request.ip));
      await app.sessions.start(reply, user.id, request.sessionIdHash);
      return reply.status(201).send(toUser(user));
    },
  );

  app.post(
    '/api/auth/signin',
    {
      schema: {
        body: signinBodySchema,
        response: { 200: userSchema, 400: errorBodySchema, 401: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = await signIn(db, limiter, request.body, addressBucket(request.ip));
      await app.sessions.start(reply, user.id, request.sessionIdHash);
      return toUser(user);
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { response: { 200: logoutResponseSchema } } },
    async (request, reply) => {
      await app.sessions.end(reply, request.sessionIdHash);
      return { ok: true as const };
    },
  );

  // Browser navigation from the drawer's Sign Out. Only a top-level navigation from the site itself
  // signs out: an <img src="/api/logout"> (or a link from elsewhere) is a GET with the cookie too,
  // and is redirected without touching the session.
  app.get('/api/logout', async (request, reply) => {
    if (isOwnNavigation(request.headers)) await app.sessions.end(reply, request.sessionIdHash);
    return reply.redirect('/', 302);
  });

  app.post(
    '/api/auth/verify-email',
    {
      schema: {
        body: verifyEmailBodySchema,
        response: { 200: verifyEmailResponseSchema, 400: errorBodySchema },
      },
    },
    async (request) => verifyEmail(db, mail, request.body.token),
  );

  app.post(
    '/api/auth/verify-email/resend',
    {
      config: SIGNED_IN,
      schema: {
        response: {
          202: resendVerificationResponseSchema,
          401: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await resendVerification(db, mail, limiter, signedInUser(request).id)),
  );

  app.post(
    '/api/auth/password-reset/request',
    {
      schema: {
        body: passwordResetRequestBodySchema,
        response: { 202: passwordResetRequestResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { message, mailing } = await requestPasswordReset(
        db,
        mail,
        limiter,
        request.body.email,
        addressBucket(request.ip),
      );
      await reply.status(202).send({ message });
      // After the answer has gone: how long the lookup and the queueing take must not tell whether
      // the address is registered.
      await mailing().catch((error: unknown) =>
        request.log.error({ err: error }, 'queueing a password reset mail failed'),
      );
    },
  );

  app.post(
    '/api/auth/password-reset',
    {
      schema: {
        body: passwordResetBodySchema,
        response: { 200: userSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = await resetPassword(db, mail, limiter, request.body, addressBucket(request.ip));
      // Every session of the account ends (here and on every instance); this browser gets a new one.
      await app.sessions.endAllOf(user.id, null);
      await app.sessions.start(reply, user.id, request.sessionIdHash);
      return toUser(user);
    },
  );

  app.get(
    '/api/auth/user',
    { config: SIGNED_IN, schema: { response: { 200: userSchema, 401: errorBodySchema } } },
    async (request) => {
      if (!request.user) throw unauthorized();
      return request.user;
    },
  );
};
