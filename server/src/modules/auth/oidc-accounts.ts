import { randomInt } from 'node:crypto';
import type { PendingAccountLink } from '@streamshop/contract/account-link.ts';
import { EMAIL_PATTERN, OIDC_PROVIDERS, type OidcProvider } from '@streamshop/contract/auth.ts';
import type { Db } from '../../db/client.ts';
import { AppError, conflict, tooManyRequests } from '../../platform/errors.ts';
import { verifyPassword } from '../../platform/password.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import type { OidcIdentity } from './oidc-clients.ts';
import { PROVIDER_LABELS } from './oidc-clients.ts';
import type { PendingLink } from './oidc-cookies.ts';
import { LINK_TTL_SEC } from './oidc-cookies.ts';
import { OidcFlowError } from './oidc-flow-error.ts';
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

/** The account an external identity signs in to: found, created, or linked with a password. */

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
    // Whoever registered the address first may not own it: only a confirmed address is linked to.
    if (!existing.emailVerified) {
      throw new OidcFlowError(
        'email_unconfirmed',
        `the account with the ${provider} email has not confirmed it`,
      );
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
          emailVerified: identity.emailVerified === true,
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
