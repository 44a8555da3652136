import { createHmac, randomInt } from 'node:crypto';
import { sign, unsign } from '@fastify/cookie';
import { EMAIL_PATTERN, type OidcProvider } from '@streamshop/contract/auth.ts';
import * as oidc from 'openid-client';
import { z } from 'zod';
import type { Config, OidcSettings } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import {
  findUserByEmail,
  findUserByHandle,
  findUserByIdentity,
  insertUserWithIdentity,
  linkIdentity,
  type UserRow,
  uniqueViolation,
} from './repo.ts';

/** OpenID Connect sign-in (spec section 2: the sign-in page's external provider buttons). */

export const OIDC_SCOPE = 'openid email profile';
export const PROVIDER_LABELS: Record<OidcProvider, string> = { google: 'Google', replit: 'Replit' };

/** How long a started sign-in may take before its flow cookie is refused. */
export const FLOW_TTL_SEC = 10 * 60;
/** Discovered provider metadata is reused this long, then discovered again. */
const DISCOVERY_TTL_MS = 24 * 60 * 60 * 1000;
/** Seconds any single request to a provider may take. */
const PROVIDER_TIMEOUT_SEC = 10;

/** Short, stable codes the callback hands to /signin?error=<code>. */
export type OidcErrorCode =
  | 'access_denied'
  | 'provider_error'
  | 'provider_unavailable'
  | 'expired'
  | 'state_mismatch'
  | 'token_exchange_failed'
  | 'email_required'
  | 'email_in_use'
  | 'signin_failed';

/** A sign-in that cannot complete; `code` is safe to show, `message` is for logs. */
export class OidcFlowError extends Error {
  constructor(
    readonly code: OidcErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// ---------------------------------------------------------------------------------------------
// The flow cookie: PKCE verifier, state and nonce between the redirect out and the callback.

export interface PendingFlow {
  provider: OidcProvider;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const pendingFlowSchema = z.object({
  provider: z.string(),
  state: z.string().min(1).max(200),
  nonce: z.string().min(1).max(200),
  codeVerifier: z.string().min(43).max(128),
  expiresAt: z.number(),
});

/** A key of its own for the flow cookie, derived from the session secret. */
export function flowCookieKey(sessionSecret: string): Buffer {
  return createHmac('sha256', sessionSecret).update('streamshop/oidc-flow-cookie/v1').digest();
}

/**
 * Serialises a flow and signs it with @fastify/cookie's HMAC signer. Signed, not encrypted: the
 * values only ever travel between the user's own browser (HttpOnly cookie) and this server.
 */
export function sealFlow(key: Buffer, flow: PendingFlow): string {
  return sign(Buffer.from(JSON.stringify(flow)).toString('base64url'), key);
}

/** The flow a cookie holds, or undefined when it is missing, forged, for another provider or stale. */
export function openFlow(
  key: Buffer,
  sealed: string | undefined,
  provider: OidcProvider,
  now = Date.now(),
): PendingFlow | undefined {
  if (!sealed || sealed.length > 2048) return undefined;
  const { valid, value } = unsign(sealed, key);
  if (!valid || !value) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = pendingFlowSchema.safeParse(json);
  if (!parsed.success || parsed.data.provider !== provider || parsed.data.expiresAt <= now) return undefined;
  return { ...parsed.data, provider };
}

// ---------------------------------------------------------------------------------------------
// Provider clients.

/** What this app takes from a provider's ID token and userinfo. */
export interface OidcIdentity {
  provider: OidcProvider;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  preferredUsername: string | undefined;
  name: string | undefined;
  givenName: string | undefined;
  familyName: string | undefined;
  picture: string | undefined;
}

/**
 * openid-client refuses plain-http providers. That is relaxed only for a provider on this very
 * machine (a local test or development identity provider), never for a remote one.
 */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/**
 * client_secret_basic when the provider offers it (the OAuth default, and what Google and Replit
 * list), else client_secret_post; decided per request from the discovered metadata.
 */
function clientSecretAuth(clientSecret: string): oidc.ClientAuth {
  const basic = oidc.ClientSecretBasic(clientSecret);
  const post = oidc.ClientSecretPost(clientSecret);
  return (as, client, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported;
    const useBasic =
      !methods || methods.includes('client_secret_basic') || !methods.includes('client_secret_post');
    return (useBasic ? basic : post)(as, client, body, headers);
  };
}

const text = (claims: Record<string, unknown>, name: string): string | undefined => {
  const value = claims[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** Network and timeout failures, as opposed to a provider's OAuth error answer. */
function isTransportError(error: unknown): boolean {
  return !(
    error instanceof oidc.ResponseBodyError ||
    error instanceof oidc.AuthorizationResponseError ||
    error instanceof oidc.WWWAuthenticateChallengeError
  );
}

/** Discovers and caches each configured provider, and runs the two halves of a sign-in. */
export class OidcClients {
  readonly #settings: Config['oidc'];
  readonly #publicUrl: string;
  readonly #discovered = new Map<OidcProvider, { at: number; configuration: Promise<oidc.Configuration> }>();

  constructor(settings: Config['oidc'], publicUrl: string) {
    this.#settings = settings;
    this.#publicUrl = publicUrl.replace(/\/$/, '');
  }

  isConfigured(provider: OidcProvider): boolean {
    return this.#settings[provider] !== undefined;
  }

  redirectUri(provider: OidcProvider): string {
    return `${this.#publicUrl}/api/auth/${provider}/callback`;
  }

  /** Builds the authorization URL and the flow to keep until the callback. */
  async start(provider: OidcProvider): Promise<{ url: URL; flow: PendingFlow }> {
    const configuration = await this.#configuration(provider);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const flow: PendingFlow = {
      provider,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier,
      expiresAt: Date.now() + FLOW_TTL_SEC * 1000,
    };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri(provider),
      scope: OIDC_SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url, flow };
  }

  /**
   * Checks the authorization response against the flow (state, issuer), redeems the code with the
   * PKCE verifier, validates the ID token (signature, audience, nonce) and reads the claims,
   * asking the userinfo endpoint for those the ID token leaves out.
   * @param search the callback's raw query string, as the provider sent it
   * @param flow the flow from the cookie; undefined when it was missing, forged or stale
   */
  async finish(provider: OidcProvider, search: string, flow: PendingFlow | undefined): Promise<OidcIdentity> {
    const params = new URLSearchParams(search);
    const error = params.get('error');
    if (error) {
      throw new OidcFlowError(
        error === 'access_denied' ? 'access_denied' : 'provider_error',
        `${provider} answered error=${error.slice(0, 64)}`,
      );
    }
    if (!flow) throw new OidcFlowError('expired', `no valid ${provider} flow cookie`);
    if (params.get('state') !== flow.state) throw new OidcFlowError('state_mismatch', 'state does not match');

    const configuration = await this.#configuration(provider);
    const currentUrl = new URL(this.redirectUri(provider));
    currentUrl.search = search;
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      if (isTransportError(error)) this.forget(provider);
      throw new OidcFlowError('token_exchange_failed', `code exchange with ${provider} failed`, {
        cause: error,
      });
    }
    const idToken = tokens.claims();
    if (!idToken) throw new OidcFlowError('token_exchange_failed', `${provider} returned no ID token`);

    let claims: Record<string, unknown> = idToken;
    const lacksProfile = !text(claims, 'email') || !(text(claims, 'name') || text(claims, 'given_name'));
    if (lacksProfile && configuration.serverMetadata().userinfo_endpoint) {
      try {
        const userinfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
        // The ID token wins where both speak.
        claims = { ...userinfo, ...idToken };
      } catch (error) {
        if (!text(claims, 'email')) {
          throw new OidcFlowError('token_exchange_failed', `userinfo from ${provider} failed`, {
            cause: error,
          });
        }
      }
    }

    const emailVerified = claims.email_verified;
    return {
      provider,
      subject: idToken.sub,
      email: text(claims, 'email'),
      // Some providers send the string "true".
      emailVerified: emailVerified === true || emailVerified === 'true',
      preferredUsername: text(claims, 'preferred_username'),
      name: text(claims, 'name'),
      givenName: text(claims, 'given_name'),
      familyName: text(claims, 'family_name'),
      picture: text(claims, 'picture'),
    };
  }

  /** Drops a provider's discovered metadata so the next sign-in discovers it again. */
  forget(provider: OidcProvider): void {
    this.#discovered.delete(provider);
  }

  #configuration(provider: OidcProvider): Promise<oidc.Configuration> {
    const settings = this.#settings[provider];
    if (!settings) {
      return Promise.reject(new OidcFlowError('provider_unavailable', `${provider} is not configured`));
    }
    const cached = this.#discovered.get(provider);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
    const entry = { at: Date.now(), configuration: discover(settings) };
    this.#discovered.set(provider, entry);
    // A failed discovery is not cached: the next sign-in tries again.
    entry.configuration.catch(() => {
      if (this.#discovered.get(provider) === entry) this.#discovered.delete(provider);
    });
    return entry.configuration;
  }
}

async function discover(settings: OidcSettings): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  const execute = isLoopbackHttp(issuer) ? [oidc.allowInsecureRequests] : [];
  try {
    const configuration = await oidc.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret,
      clientSecretAuth(settings.clientSecret),
      { execute, timeout: PROVIDER_TIMEOUT_SEC },
    );
    configuration.timeout = PROVIDER_TIMEOUT_SEC;
    return configuration;
  } catch (error) {
    throw new OidcFlowError('provider_unavailable', `discovery of ${issuer.origin} failed`, { cause: error });
  }
}

// ---------------------------------------------------------------------------------------------
// Accounts.

const HANDLE_MAX = 30;
const NAME_MAX = 80;

/** Lower-case [a-z0-9_] only, separators as single underscores, at most 30 characters. */
function sanitizeHandle(value: string | undefined): string {
  if (!value) return '';
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+/, '')
    .slice(0, HANDLE_MAX)
    .replace(/_+$/, '');
}

/** The handle to start from: preferred_username, else the email's local part, else the name. */
export function handleBase(identity: Pick<OidcIdentity, 'preferredUsername' | 'email' | 'name'>): string {
  const sources = [identity.preferredUsername?.split('@')[0], identity.email?.split('@')[0], identity.name];
  for (const source of sources) {
    const handle = sanitizeHandle(source);
    if (handle.length >= 3) return handle;
  }
  return 'member';
}

/** attempt 0 is the base itself, then base2, base3, ... and, if those are all taken, random digits. */
function handleCandidate(base: string, attempt: number): string {
  if (attempt === 0) return base;
  const suffix = attempt < 20 ? String(attempt + 1) : String(randomInt(1000, 1_000_000));
  return `${base.slice(0, HANDLE_MAX - suffix.length)}${suffix}`;
}

export function deriveNames(identity: Pick<OidcIdentity, 'givenName' | 'familyName' | 'name'>): {
  firstName: string;
  lastName: string;
} {
  const [nameFirst, ...nameRest] = (identity.name ?? '').split(/\s+/).filter(Boolean);
  const firstName = identity.givenName ?? nameFirst ?? 'New';
  const lastName = identity.familyName ?? (nameRest.length ? nameRest.join(' ') : 'Member');
  return { firstName: firstName.slice(0, NAME_MAX), lastName: lastName.slice(0, NAME_MAX) };
}

function normalizeEmail(email: string | undefined): string | undefined {
  const normalized = email?.trim().toLowerCase();
  return normalized && normalized.length <= 254 && EMAIL_PATTERN.test(normalized) ? normalized : undefined;
}

function pictureUrl(picture: string | undefined): string | null {
  if (!picture || picture.length > 2048) return null;
  try {
    const url = new URL(picture);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * The account an external identity signs into: the one linked to (provider, subject); else the
 * one with the same email when the provider says it verified that email (and the identity is
 * linked to it); else a new account without a password.
 */
export async function resolveOidcUser(db: Db, identity: OidcIdentity): Promise<UserRow> {
  const { provider, subject } = identity;
  const linked = await findUserByIdentity(db, provider, subject);
  if (linked) return linked;

  const email = normalizeEmail(identity.email);
  if (!email) throw new OidcFlowError('email_required', `${provider} shared no usable email address`);

  const linkByEmail = async () => {
    if (!identity.emailVerified) return undefined;
    const existing = await findUserByEmail(db, email);
    if (existing) await linkIdentity(db, provider, subject, existing.id);
    return existing;
  };
  const existing = await linkByEmail();
  if (existing) return existing;

  const { firstName, lastName } = deriveNames(identity);
  const base = handleBase(identity);
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const handle = handleCandidate(base, attempt);
    if (await findUserByHandle(db, handle)) continue;
    try {
      return await insertUserWithIdentity(
        db,
        {
          handle,
          email,
          passwordHash: null,
          firstName,
          lastName,
          businessName: null,
          profileImageUrl: pictureUrl(identity.picture),
        },
        provider,
        subject,
      );
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'users_handle_key') continue; // taken meanwhile: next candidate
      if (constraint === 'user_identities_provider_subject_key') {
        // A parallel sign-in of the same identity created the account first.
        const winner = await findUserByIdentity(db, provider, subject);
        if (winner) return winner;
      }
      if (constraint === 'users_email_key') {
        const owner = await linkByEmail();
        if (owner) return owner;
        throw new OidcFlowError('email_in_use', `an account already uses the ${provider} email, unverified`);
      }
      throw error;
    }
  }
  throw new OidcFlowError('signin_failed', 'no free handle found');
}
