import { createHmac, randomBytes } from 'node:crypto';
import type { User } from '@streamshop/contract/auth.ts';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { toUser } from '../modules/auth/user.ts';
import { unauthorized } from './errors.ts';

export const SESSION_COOKIE = 'sid';
const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Set from the session cookie before any handler runs. */
    user: User | null;
    sessionIdHash: string | null;
  }
  interface FastifyInstance {
    sessions: SessionStore;
  }
}

export interface SessionStore {
  /** Starts a new session (a fresh id: sign-in rotates it) and sets the cookie. */
  start(reply: FastifyReply, userId: string, previousIdHash: string | null): Promise<void>;
  end(reply: FastifyReply, idHash: string | null): Promise<void>;
}

export const sessionsPlugin = fp<{ db: Db; secret: string; secureCookies: boolean }>(
  async (app: FastifyInstance, { db, secret, secureCookies }) => {
    /** The table keeps an HMAC of the id, so a leaked table does not hand out sessions. */
    const hashId = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');
    const cookieOptions = {
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: secureCookies,
    };

    app.decorateRequest('user', null);
    app.decorateRequest('sessionIdHash', null);

    app.addHook('onRequest', async (request: FastifyRequest) => {
      const id = request.cookies[SESSION_COOKIE];
      if (!id || id.length > 64) return;
      const idHash = hashId(id);
      const [row] = await db
        .select({ user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, new Date())))
        .limit(1);
      if (!row) return;
      request.user = toUser(row.user);
      request.sessionIdHash = idHash;
    });

    const store: SessionStore = {
      async start(reply, userId, previousIdHash) {
        const id = randomBytes(16).toString('base64url'); // 128 bits
        const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
        await db.transaction(async (tx) => {
          if (previousIdHash) await tx.delete(sessions).where(eq(sessions.idHash, previousIdHash));
          await tx
            .delete(sessions)
            .where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, new Date())));
          await tx.insert(sessions).values({ idHash: hashId(id), userId, expiresAt });
        });
        reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions, expires: expiresAt });
      },
      async end(reply, idHash) {
        if (idHash) await db.delete(sessions).where(eq(sessions.idHash, idHash));
        reply.clearCookie(SESSION_COOKIE, cookieOptions);
      },
    };
    app.decorate('sessions', store);
  },
  { name: 'sessions', dependencies: ['@fastify/cookie'] },
);

/** The signed-in user of a request that needs one; 401 otherwise. */
export function signedInUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}
