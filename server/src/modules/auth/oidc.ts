import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { sign, unsign } from '@fastify/cookie';
import type { PendingAccountLink } from '@streamshop/contract/account-link.ts';
import { EMAIL_PATTERN, OIDC_PROVIDERS, type OidcProvider } from '@streamshop/contract/auth.ts';
import * as oidc from 'openid-client';
import { z } from 'zod';
import type { Config, OidcSettings } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, tooManyRequests } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { verifyPassword } from './password.ts';
import {
  findUserByEmail,
  findUserByHandle,
  findUserByIdentity,
  identitiesOfUser,
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
  | 'email_linked'
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

/** A key of its own for each cookie, derived from the session secret and the cookie's purpose. */
function cookieKey(sessionSecret: string, purpose: string): Buffer {
  return createHmac('sha256', sessionSecret).update(`streamshop/${purpose}/v1`).digest();
}

/** The flow cookie's key. */
export function flowCookieKey(sessionSecret: string): Buffer {
  return cookieKey(sessionSecret, 'oidc-flow-cookie');
}

/** Parses a cookie's JSON payload; undefined when it is not JSON. */
function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
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
  const parsed = pendingFlowSchema.safeParse(parseJson(Buffer.from(value, 'base64url')));
  if (!parsed.success || parsed.data.provider !== provider || parsed.data.expiresAt <= now) return undefined;
  return { ...parsed.data, provider };
}

// ---------------------------------------------------------------------------------------------
// The link cookie: an external identity waiting to be linked to the account that has its email.

/** How long a pending link waits for the account's password. */
export const LINK_TTL_SEC = 10 * 60;

/**
 * A verified external identity whose email belongs to an existing account. It is linked only when
 * the same browser then proves it owns that account (its password, or a provider already linked).
 */
export interface PendingLink {
  provider: OidcProvider;
  subject: string;
  /** Normalised (lower-case); the provider said it verified it. */
  email: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const pendingLinkSchema = z.object({
  provider: z.enum(OIDC_PROVIDERS),
  subject: z.string().min(1).max(255),
  email: z.string().min(3).max(254),
  expiresAt: z.number(),
});

/** The link cookie's key. */
export function linkCookieKey(sessionSecret: string): Buffer {
  return cookieKey(sessionSecret, 'oidc-link-cookie');
}

const LINK_IV_BYTES = 12;
const LINK_TAG_BYTES = 16;

/**
 * Encrypts a pending link with AES-256-GCM (iv, tag and ciphertext, base64url): the browser holds
 * it but can neither read the provider's subject nor change a byte of it.
 */
export function sealLink(key: Buffer, link: PendingLink): string {
  const iv = randomBytes(LINK_IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(link), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

export type OpenedLink =
  | { link: PendingLink }
  | { problem: 'missing' | 'invalid' }
  | { problem: 'expired'; provider: OidcProvider };

/** The pending link a cookie holds, or why there is none. */
export function openLink(key: Buffer, sealed: string | undefined, now = Date.now()): OpenedLink {
  if (!sealed) return { problem: 'missing' };
  if (sealed.length > 2048) return { problem: 'invalid' };
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length <= LINK_IV_BYTES + LINK_TAG_BYTES) return { problem: 'invalid' };
  let plaintext: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, LINK_IV_BYTES));
    decipher.setAuthTag(bytes.subarray(LINK_IV_BYTES, LINK_IV_BYTES + LINK_TAG_BYTES));
    plaintext = Buffer.concat([
      decipher.update(bytes.subarray(LINK_IV_BYTES + LINK_TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    return { problem: 'invalid' };
  }
  const parsed = pendingLinkSchema.safeParse(parseJson(plaintext));
  if (!parsed.success) return { problem: 'invalid' };
  if (parsed.data.expiresAt <= now) return { problem: 'expired', provider: parsed.data.provider };
  return { link: parsed.data };
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

/** Where an external identity leads: into an account, or to the page that links it to one. */
export type OidcOutcome = { user: UserRow } | { linkRequired: PendingLink };

/**
 * The account an external identity signs into: the one linked to (provider, subject); else a new
 * account without a password. An identity whose email an existing account already has is never
 * linked on the email alone: nothing has verified that the account's owner holds that email (the
 * product has no email verification yet), so whoever registered it first, perhaps with someone
 * else's address, would receive every later sign-in of the address's real owner. Instead, a
 * verified email leads to a pending link, completed only once the account's owner proves it
 * (its password, or a sign-in with a provider already linked to it).
 */
export async function resolveOidcUser(
  db: Db,
  identity: OidcIdentity,
  now = Date.now(),
): Promise<OidcOutcome> {
  const { provider, subject } = identity;
  const linked = await findUserByIdentity(db, provider, subject);
  if (linked) return { user: linked };

  const email = normalizeEmail(identity.email);
  if (!email) throw new OidcFlowError('email_required', `${provider} shared no usable email address`);

  /** A pending link when an account already has the email; undefined when none does. */
  const pendingLink = async (): Promise<OidcOutcome | undefined> => {
    const existing = await findUserByEmail(db, email);
    if (!existing) return undefined;
    if (!identity.emailVerified) {
      throw new OidcFlowError('email_in_use', `an account already uses the ${provider} email, unverified`);
    }
    const identities = await identitiesOfUser(db, existing.id);
    if (identities.some((other) => other.provider === provider)) {
      throw new OidcFlowError('email_linked', `the account with this email has another ${provider} identity`);
    }
    return { linkRequired: { provider, subject, email, expiresAt: now + LINK_TTL_SEC * 1000 } };
  };
  const pending = await pendingLink();
  if (pending) return pending;

  const { firstName, lastName } = deriveNames(identity);
  const base = handleBase(identity);
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const handle = handleCandidate(base, attempt);
    if (await findUserByHandle(db, handle)) continue;
    try {
      const user = await insertUserWithIdentity(
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
      return { user };
    } catch (error) {
      const constraint = uniqueViolation(error);
      if (constraint === 'users_handle_key') continue; // taken meanwhile: next candidate
      if (constraint === 'user_identities_provider_subject_key') {
        // A parallel sign-in of the same identity created the account first.
        const winner = await findUserByIdentity(db, provider, subject);
        if (winner) return { user: winner };
      }
      if (constraint === 'users_email_key') {
        // An account with this email was created meanwhile.
        const raced = await pendingLink();
        if (raced) return raced;
      }
      throw error;
    }
  }
  throw new OidcFlowError('signin_failed', 'no free handle found');
}

/**
 * Links a pending identity to the account that proved it owns the pending email. False when that
 * cannot be: the identity now belongs to another account, or the account meanwhile got another
 * identity at the same provider.
 */
export async function linkPendingIdentity(db: Db, userId: string, link: PendingLink): Promise<boolean> {
  const identities = await identitiesOfUser(db, userId);
  const atProvider = identities.find((identity) => identity.provider === link.provider);
  if (atProvider) return atProvider.subject === link.subject;
  await linkIdentity(db, link.provider, link.subject, userId);
  const owner = await findUserByIdentity(db, link.provider, link.subject);
  return owner?.id === userId;
}

/** Password attempts at a pending link allowed per window, per account (its email) and per address. */
export const LINK_LIMITS = { perAccount: 10, perIp: 50, windowSec: 600 };

/**
 * Completes a pending link with the password of the account that has the pending email, and
 * returns that account. Every attempt counts against the limits before the password is checked;
 * a right one ends the pending link, so what they count is failures (and at most one success).
 */
export async function linkWithPassword(
  db: Db,
  limiter: RateLimiter,
  link: PendingLink,
  password: string,
  ip: string,
): Promise<UserRow> {
  for (const [key, limit] of [
    [`link:ip:${ip}`, LINK_LIMITS.perIp],
    [`link:account:${link.email}`, LINK_LIMITS.perAccount],
  ] as const) {
    const result = await limiter.hit(key, limit, LINK_LIMITS.windowSec);
    if (!result.allowed) throw tooManyRequests(result.retryAfterSec);
  }
  const account = await accountToLink(db, link);
  if (!account.passwordHash) {
    const firstWay = (await providersOfUser(db, account.id)).map((p) => PROVIDER_LABELS[p]).join(' or ');
    throw conflict(
      'CONFLICT',
      firstWay
        ? `That account has no password. Continue with ${firstWay} to link your ${PROVIDER_LABELS[link.provider]} sign-in to it.`
        : 'That account has no password, so it cannot be linked here.',
    );
  }
  if (!(await verifyPassword(account.passwordHash, password))) {
    throw new AppError(401, 'INVALID_CREDENTIALS', 'Incorrect password for the account with this email.');
  }
  if (!(await linkPendingIdentity(db, account.id, link))) {
    const label = PROVIDER_LABELS[link.provider];
    throw conflict(
      'CONFLICT',
      `This ${label} sign-in cannot be linked: the account already has another one.`,
    );
  }
  return account;
}

/** The account that has the pending link's email; 410 when it is gone. */
async function accountToLink(db: Db, link: PendingLink): Promise<UserRow> {
  const account = await findUserByEmail(db, link.email);
  if (account) return account;
  const label = PROVIDER_LABELS[link.provider];
  throw new AppError(410, 'BAD_REQUEST', `That account no longer exists. Continue with ${label} again.`);
}

/** The providers an account signs in with, in the sign-in page's order. */
async function providersOfUser(db: Db, userId: string): Promise<OidcProvider[]> {
  const linked = new Set((await identitiesOfUser(db, userId)).map((identity) => identity.provider));
  return OIDC_PROVIDERS.filter((provider) => linked.has(provider));
}

/** What the link page shows: which sign-in waits to be linked to which email's account, and how. */
export async function describePendingLink(db: Db, link: PendingLink): Promise<PendingAccountLink> {
  const account = await accountToLink(db, link);
  return {
    provider: link.provider,
    email: link.email,
    hasPassword: account.passwordHash !== null,
    signInWith: await providersOfUser(db, account.id),
  };
}
