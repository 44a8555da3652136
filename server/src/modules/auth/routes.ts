import {
  logoutResponseSchema,
  signinBodySchema,
  signupBodySchema,
  userSchema,
} from '@streamshop/contract/auth.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { SIGNED_IN } from '../../platform/sessions.ts';
import { toUser } from '../../platform/user.ts';
import { signIn, signUp } from './service.ts';

/** A top-level navigation started on this site: Sec-Fetch-Dest document and Sec-Fetch-Site same-origin. */
function isOwnNavigation(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['sec-fetch-dest'] === 'document' && headers['sec-fetch-site'] === 'same-origin';
}

export const authRoutes: FastifyPluginAsyncZod<{ db: Db; limiter: RateLimiter }> = async (
  app,
  { db, limiter },
) => {
  app.post(
    '/api/auth/signup',
    {
      schema: {
        body: signupBodySchema,
        response: { 201: userSchema, 400: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = await signUp(db, limiter, request.body, request.ip);
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
      const user = await signIn(db, limiter, request.body, request.ip);
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

  app.get(
    '/api/auth/user',
    { config: SIGNED_IN, schema: { response: { 200: userSchema, 401: errorBodySchema } } },
    async (request) => {
      if (!request.user) throw unauthorized();
      return request.user;
    },
  );
};
