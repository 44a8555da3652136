import type { CookieSerializeOptions } from '@fastify/cookie';
import { OIDC_PROVIDERS, type OidcProvider } from '@streamshop/contract/auth.ts';
import type { ErrorBody } from '@streamshop/contract/errors.ts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import {
  FLOW_TTL_SEC,
  flowCookieKey,
  OidcClients,
  OidcFlowError,
  openFlow,
  PROVIDER_LABELS,
  resolveOidcUser,
  sealFlow,
} from './oidc.ts';

/**
 * External sign-in (spec sections 2 and 7): the sign-in page navigates to /api/auth/{provider};
 * the provider sends the browser back to /api/auth/{provider}/callback, which signs the user in
 * and goes to /dashboard, or to /signin?error=<code> when anything fails.
 */
export const oidcRoutes: FastifyPluginAsync<{ db: Db; config: Config }> = async (app, { db, config }) => {
  const clients = new OidcClients(config.oidc, config.publicUrl);
  const cookieKey = flowCookieKey(config.sessionSecret);
  const secure = config.publicUrl.startsWith('https:');

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
      if (!clients.isConfigured(provider)) return notConfigured(request, reply, provider);
      try {
        const { url, flow } = await clients.start(provider);
        reply.setCookie(cookieName, sealFlow(cookieKey, flow), { ...cookieOptions, maxAge: FLOW_TTL_SEC });
        return reply.redirect(url.href, 302);
      } catch (error) {
        logFailure(request, provider, error);
        return reply.redirect('/signin?error=provider_unavailable', 302);
      }
    });

    app.get(`/api/auth/${provider}/callback`, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!clients.isConfigured(provider)) return notConfigured(request, reply, provider);
      const flow = openFlow(cookieKey, request.cookies[cookieName], provider);
      // One use only, whatever happens next.
      reply.clearCookie(cookieName, cookieOptions);
      const queryAt = request.url.indexOf('?');
      const search = queryAt === -1 ? '' : request.url.slice(queryAt);
      try {
        const identity = await clients.finish(provider, search, flow);
        const user = await resolveOidcUser(db, identity);
        await app.sessions.start(reply, user.id, request.sessionIdHash);
        request.log.info({ provider, userId: user.id }, 'signed in with OpenID Connect');
        return reply.redirect('/dashboard', 302);
      } catch (error) {
        const code = logFailure(request, provider, error);
        return reply.redirect(`/signin?error=${code}`, 302);
      }
    });
  }
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

function notConfigured(request: FastifyRequest, reply: FastifyReply, provider: OidcProvider) {
  const message = `Sign-in with ${PROVIDER_LABELS[provider]} is not configured on this server.`;
  reply.status(501);
  if (request.headers.accept?.includes('text/html')) {
    // A browser navigated here from the sign-in page: a plain page, no scripts, no style sheet.
    return reply.type('text/html; charset=utf-8').send(notConfiguredPage(message));
  }
  return reply.send({ message, code: 'NOT_CONFIGURED' } satisfies ErrorBody);
}

function notConfiguredPage(message: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in unavailable</title>
</head>
<body style="margin:0;min-height:100vh;background:#0b0b10;color:#e8e8ee;font-family:system-ui,sans-serif">
<main style="max-width:32rem;margin:0 auto;padding:4rem 1.5rem">
<h1 style="font-size:1.25rem;font-weight:600">${message}</h1>
<p><a href="/signin" style="color:#a78bfa">Back to sign in</a></p>
</main>
</body>
</html>
`;
}
