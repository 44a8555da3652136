import { createHmac, randomBytes } from 'node:crypto';
import type { User } from '@streamshop/contract/auth.ts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { unauthorized } from './errors.ts';
import { toUser, toUserRow, USER_COLUMNS, type UserRecord } from './user.ts';

/** On https the cookie is `__Host-sid`: the browser then insists on Secure, Path=/ and no Domain. */
export const SESSION_COOKIE = 'sid';
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session, not on every request. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
/** A User-Agent is kept to this length (enough to name the browser and the system). */
const USER_AGENT_MAX = 300;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a session: without one it answers 401 before its params or body are read. */
    signedIn?: boolean;
  }
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
  /**
   * Ends every session of the account but `keepIdHash` (null: all of them), on every instance
   * (their sockets close); answers how many ended. Password changes and resets, "sign out
   * everywhere else" and account deletion use it.
   */
  endAllOf(userId: string, keepIdHash: string | null): Promise<number>;
  /** Ends one session of the account (the settings page's "Sign out" on another device); answers whether it did. */
  endOneOf(userId: string, idHash: string): Promise<boolean>;
}

export const sessionsPlugin = fp<{
  db: Db;
  secret: string;
  secureCookies: boolean;
  idleTimeoutMs: number;
  /** Called after a session was deleted (its sockets are closed there). */
  onEnd?: (idHash: string) => Promise<void>;
}>(
  async (app: FastifyInstance, { db, secret, secureCookies, idleTimeoutMs, onEnd }) => {
    /** The table keeps an HMAC of the id, so a leaked table does not hand out sessions. */
    const hashId = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');
    const cookieOptions = {
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: secureCookies,
    };
    const cookieName = secureCookies ? SECURE_SESSION_COOKIE : SESSION_COOKIE;

    app.decorateRequest('user', null);
    app.decorateRequest('sessionIdHash', null);

    /** The session's user, when the cookie names a session that has neither expired nor idled out. */
    async function lookUp(request: FastifyRequest): Promise<void> {
      const id = request.cookies[cookieName];
      if (!id || id.length > 64) return;
      const idHash = hashId(id);
      const now = Date.now();
      const found = await db.execute<UserRecord & { lastSeenAt: Date | string }>(sql`
        select ${USER_COLUMNS}, s.last_seen_at as "lastSeenAt"
        from sessions s join users u on u.id = s.user_id
        where s.id_hash = ${idHash} and s.expires_at > ${new Date(now)} and u.deleted_at is null
          and s.last_seen_at > ${new Date(now - idleTimeoutMs)}
        limit 1`);
      const row = found.rows[0];
      if (!row) return;
      if (now - new Date(row.lastSeenAt).getTime() > LAST_SEEN_RESOLUTION_MS) {
        await db.execute(sql`update sessions set last_seen_at = ${new Date(now)} where id_hash = ${idHash}`);
      }
      const { lastSeenAt: _lastSeenAt, ...user } = row;
      request.user = toUser(toUserRow(user));
      request.sessionIdHash = idHash;
    }

    app.addHook('onRequest', async (request: FastifyRequest) => {
      await lookUp(request);
      // Before the body is parsed or validated, so an anonymous caller learns nothing of its schema.
      if (request.routeOptions.config.signedIn && !request.user) throw unauthorized();
    });

    const store: SessionStore = {
      async start(reply, userId, previousIdHash) {
        const id = randomBytes(16).toString('base64url'); // 128 bits
        const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
        await db.transaction(async (tx) => {
          if (previousIdHash) await tx.execute(sql`delete from sessions where id_hash = ${previousIdHash}`);
          // The account's lapsed sessions go as a new one starts.
          await tx.execute(sql`
            delete from sessions
            where user_id = ${userId}
              and (expires_at < ${new Date()} or last_seen_at < ${new Date(Date.now() - idleTimeoutMs)})`);
          const userAgent = reply.request.headers['user-agent']?.slice(0, USER_AGENT_MAX) ?? null;
          await tx.execute(sql`
            insert into sessions (id_hash, user_id, expires_at, user_agent)
            values (${hashId(id)}, ${userId}, ${expiresAt}, ${userAgent})`);
        });
        reply.setCookie(cookieName, id, { ...cookieOptions, expires: expiresAt });
      },
      async end(reply, idHash) {
        if (idHash) {
          await db.execute(sql`delete from sessions where id_hash = ${idHash}`);
          await onEnd?.(idHash);
        }
        reply.clearCookie(cookieName, cookieOptions);
      },
      async endAllOf(userId, keepIdHash) {
        const ended = await db.execute<{ id_hash: string }>(sql`
          delete from sessions where user_id = ${userId}
            ${keepIdHash ? sql`and id_hash <> ${keepIdHash}` : sql``}
          returning id_hash`);
        for (const row of ended.rows) await onEnd?.(row.id_hash);
        return ended.rows.length;
      },
      async endOneOf(userId, idHash) {
        const ended = await db.execute(
          sql`delete from sessions where user_id = ${userId} and id_hash = ${idHash} returning id_hash`,
        );
        if (ended.rows.length === 0) return false;
        await onEnd?.(idHash);
        return true;
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

/** Route config for a route that needs a session: 401 comes before any 400 (see the onRequest hook). */
export const SIGNED_IN = { signedIn: true } as const;
