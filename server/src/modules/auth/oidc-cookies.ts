import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { sign, unsign } from '@fastify/cookie';
import { OIDC_PROVIDERS, type OidcProvider } from '@streamshop/contract/auth.ts';
import { RETURN_PATH_MAX_LENGTH } from '@streamshop/contract/return-path.ts';
import { z } from 'zod';

/**
 * The two short-lived cookies of external sign-in, sealed with keys derived from the session
 * secret: the flow cookie (between the redirect out and the callback) and the link cookie.
 */

/** How long a started sign-in may take before its flow cookie is refused. */
export const FLOW_TTL_SEC = 10 * 60;

// ---------------------------------------------------------------------------------------------
// The flow cookie: PKCE verifier, state and nonce between the redirect out and the callback.

export interface PendingFlow {
  provider: OidcProvider;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Where to go once signed in (a same-site path, checked again before it is followed). */
  next?: string;
}

const pendingFlowSchema = z.object({
  provider: z.string(),
  state: z.string().min(1).max(200),
  nonce: z.string().min(1).max(200),
  codeVerifier: z.string().min(43).max(128),
  expiresAt: z.number(),
  next: z.string().max(RETURN_PATH_MAX_LENGTH).optional(),
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
