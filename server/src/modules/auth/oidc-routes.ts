import type { CookieSerializeOptions } from '@fastify/cookie';
import {
  LINK_ACCOUNT_PATH,
  linkAccountBodySchema,
  pendingAccountLinkSchema,
} from '@streamshop/contract/account-link.ts';
import {
  EXTERNAL_PROVIDERS_URL,
  type ExternalProviders,
  externalProvidersSchema,
  OIDC_PROVIDERS,
  type OidcProvider,
  userSchema,
} from '@streamshop/contract/auth.ts';
import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  DEFAULT_RETURN_PATH,
  RETURN_PATH_PARAM,
  safeReturnPath,
  withReturnPath,
} from '@streamshop/contract/return-path.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { addressBucket } from '../../platform/address-bucket.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { toUser } from '../../platform/user.ts';
import {
  describePendingLink,
  linkPendingIdentity,
  linkWithPassword,
  resolveOidcUser,
} from './oidc-accounts.ts';
import { OidcClients, PROVIDER_LABELS } from './oidc-clients.ts';
import {
  FLOW_TTL_SEC,
  flowCookieKey,
  LINK_TTL_SEC,
  linkCookieKey,
  openFlow,
  openLink,
  type PendingLink,
  sealFlow,
  sealLink,
} from './oidc-cookies.ts';
import { OidcFlowError } from './oidc-flow-error.ts';

/** The pending link's cookie (see oidc-cookies.ts, "The link cookie"). */
export const LINK_COOKIE = 'oidc_link';

/**
 * External sign-in (spec sections 2 and 7): the sign-in page navigates to /api/auth/{provider};
 * the provider sends the browser back to /api/auth/{provider}/callback, which signs the user in
 * and goes to /dashboard, or to /signin?error=<code> when anything fails. A same-site `?next=`
 * on the first request (a signed-out Buy Now) rides in the flow cookie and replaces /dashboard,
 * and is passed on to the link page and to /signin on failure; any other value is dropped. An identity whose
 * verified email belongs to an account it is not linked to goes to the link page instead
 * (LINK_ACCOUNT_PATH), which completes the link with that account's password: /api/auth/link.
 * The pages show a button only for the providers EXTERNAL_PROVIDERS_URL lists (those configured).
 */
export const oidcRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config; limiter: RateLimiter }> = async (
  app,
  { db, config, limiter },
) => {
  const clients = new OidcClients(config.oidc, config.publicUrl);
  const cookieKey = flowCookieKey(config.sessionSecret);
  const linkKey = linkCookieKey(config.sessionSecret);
  const secure = config.publicUrl.startsWith('https:');
  // Read by /api/auth/link and by every provider's callback (a sign-in with a provider already
  // linked to the account also completes the link). Lax: that callback is a cross-site redirect.
  const linkCookieOptions: CookieSerializeOptions = {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'lax',
    secure,
  };

  const configured: ExternalProviders = {
    providers: OIDC_PROVIDERS.filter((provider) => clients.isConfigured(provider)).map((id) => ({
      id,
      label: PROVIDER_LABELS[id],
    })),
  };
  app.get(
    EXTERNAL_PROVIDERS_URL,
    { schema: { response: { 200: externalProvidersSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return configured;
    },
  );

  for (const provider of OIDC_PROVIDERS) {
    const cookieName = `oidc_${provider}`;
    // Sent back only to this provider's callback; Lax so the provider's top-level redirect carries it.
    const cookieOptions: CookieSerializeOptions = {
      path: `/api/auth/${provider}/callback`,
      httpOnly: true,
      sameSite: 'lax',
      secure,
    };

    app.get(`/api/auth/${provider}`, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const next = requestedReturnPath(request);
      if (!clients.isConfigured(provider)) return notConfigured(request, reply, provider, next);
      try {
        const { url, flow } = await clients.start(provider);
        reply.setCookie(cookieName, sealFlow(cookieKey, next ? { ...flow, next } : flow), {
          ...cookieOptions,
          maxAge: FLOW_TTL_SEC,
        });
        return reply.redirect(url.href, 302);
      } catch (error) {
        logFailure(request, provider, error);
        return reply.redirect(signinErrorPath('provider_unavailable', next), 302);
      }
    });

    app.get(`/api/auth/${provider}/callback`, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const flow = openFlow(cookieKey, request.cookies[cookieName], provider);
      const next = safeReturnPath(flow?.next);
      if (!clients.isConfigured(provider)) return notConfigured(request, reply, provider, next);
      // One use only, whatever happens next.
      reply.clearCookie(cookieName, cookieOptions);
      const queryAt = request.url.indexOf('?');
      const search = queryAt === -1 ? '' : request.url.slice(queryAt);
      try {
        const identity = await clients.finish(provider, search, flow);
        const outcome = await resolveOidcUser(db, identity);
        if ('linkRequired' in outcome) {
          // Not signed in: the account's owner has to prove it is theirs first.
          reply.setCookie(LINK_COOKIE, sealLink(linkKey, outcome.linkRequired), {
            ...linkCookieOptions,
            maxAge: LINK_TTL_SEC,
          });
          request.log.info({ provider }, 'OpenID Connect sign-in waits to be linked to an existing account');
          return reply.redirect(withReturnPath(LINK_ACCOUNT_PATH, next), 302);
        }
        const { user } = outcome;
        await completePendingLinkBy(request, reply, user);
        await app.sessions.start(reply, user.id, request.sessionIdHash);
        request.log.info({ provider, userId: user.id }, 'signed in with OpenID Connect');
        return reply.redirect(next ?? DEFAULT_RETURN_PATH, 302);
      } catch (error) {
        const code = logFailure(request, provider, error);
        return reply.redirect(signinErrorPath(code, next), 302);
      }
    });
  }

  /**
   * A sign-in with a provider the account already had proves the account is this person's: a
   * link they left pending (another provider, the account's email) is completed with it.
   */
  async function completePendingLinkBy(
    request: FastifyRequest,
    reply: FastifyReply,
    user: { id: string; email: string },
  ): Promise<void> {
    const opened = openLink(linkKey, request.cookies[LINK_COOKIE]);
    if (!('link' in opened)) return;
    reply.clearCookie(LINK_COOKIE, linkCookieOptions);
    if (opened.link.email !== user.email) return;
    const linked = await linkPendingIdentity(db, user.id, opened.link);
    request.log.info(
      { provider: opened.link.provider, userId: user.id, linked },
      linked
        ? 'pending OpenID Connect link completed by a sign-in with a linked provider'
        : 'pending OpenID Connect link dropped: the account has another identity at that provider',
    );
  }

  /** The pending link of each /api/auth/link request, read before its body is. */
  const pendingLinks = new WeakMap<FastifyRequest, PendingLink>();

  /**
   * Answers 400 (none, or not one this server sealed) or 410 (expired) before anything else
   * of the request is looked at: no session is needed here, the pending link is.
   */
  async function requirePendingLink(request: FastifyRequest): Promise<void> {
    const opened = openLink(linkKey, request.cookies[LINK_COOKIE]);
    if ('link' in opened) {
      pendingLinks.set(request, opened.link);
      return;
    }
    if (opened.problem === 'expired') {
      throw new AppError(
        410,
        'BAD_REQUEST',
        `This request to link your ${PROVIDER_LABELS[opened.provider]} sign-in has expired. Continue with ${PROVIDER_LABELS[opened.provider]} again.`,
      );
    }
    throw badRequest('No sign-in is waiting to be linked. Continue with Google or Replit again.');
  }

  const pendingLinkOf = (request: FastifyRequest): PendingLink => {
    const link = pendingLinks.get(request);
    if (!link) throw new Error('requirePendingLink did not run');
    return link;
  };

  app.get(
    '/api/auth/link',
    {
      onRequest: requirePendingLink,
      schema: {
        response: { 200: pendingAccountLinkSchema, 400: errorBodySchema, 410: errorBodySchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return describePendingLink(db, pendingLinkOf(request));
    },
  );

  app.post(
    '/api/auth/link',
    {
      onRequest: requirePendingLink,
      schema: {
        body: linkAccountBodySchema,
        response: {
          200: userSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          409: errorBodySchema,
          410: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const link = pendingLinkOf(request);
      const user = await linkWithPassword(
        db,
        limiter,
        link,
        request.body.password,
        addressBucket(request.ip),
      );
      reply.clearCookie(LINK_COOKIE, linkCookieOptions);
      await app.sessions.start(reply, user.id, request.sessionIdHash);
      request.log.info({ provider: link.provider, userId: user.id }, 'OpenID Connect identity linked');
      return toUser(user);
    },
  );

  // The page's Cancel: the cookie is HttpOnly, so only the server can drop it.
  app.delete('/api/auth/link', { schema: { response: { 204: z.null() } } }, async (_request, reply) => {
    reply.clearCookie(LINK_COOKIE, linkCookieOptions);
    return reply.status(204).send(null);
  });
};

/** Logs why a sign-in failed (messages and OAuth error codes only, never tokens) and returns its code. */
function logFailure(request: FastifyRequest, provider: OidcProvider, error: unknown): string {
  if (error instanceof OidcFlowError) {
    const cause = error.cause as { message?: unknown; error?: unknown; code?: unknown } | undefined;
    request.log.warn(
      {
        provider,
        code: error.code,
        reason: error.message,
        cause: cause ? { message: cause.message, error: cause.error, code: cause.code } : undefined,
      },
      'OpenID Connect sign-in failed',
    );
    return error.code;
  }
  request.log.error({ provider, err: error }, 'OpenID Connect sign-in failed unexpectedly');
  return 'signin_failed';
}

/**
 * A stale bookmark, or a page from before the provider was removed: the sign-in page says the
 * provider is not offered here, as it explains every other failed external sign-in.
 */
function notConfigured(
  request: FastifyRequest,
  reply: FastifyReply,
  provider: OidcProvider,
  next: string | undefined,
) {
  request.log.info({ provider }, 'external sign-in with a provider that is not configured');
  return reply.redirect(signinErrorPath(`${provider}_not_configured`, next), 302);
}

/** The sign-in page saying why, still holding where the user was going. */
function signinErrorPath(code: string, next: string | undefined): string {
  return `/signin?${new URLSearchParams(next ? { error: code, [RETURN_PATH_PARAM]: next } : { error: code })}`;
}

/** `?next=` of the request that starts a sign-in, when it is a same-site path (else dropped). */
function requestedReturnPath(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[RETURN_PATH_PARAM];
  return typeof value === 'string' ? safeReturnPath(value) : undefined;
}
