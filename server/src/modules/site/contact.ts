import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { tooManyRequests } from '../../platform/errors.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { MailBody } from '../../platform/mail/render.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';

/**
 * Messages per hour from one client address, and naming one sender's email: enough for a person
 * who writes again, too few for the form to become a way to flood the operator's inbox.
 */
export const CONTACT_RATE_LIMITS = { perIp: 5, perEmail: 5, windowSec: 3600 };

export interface ContactMessage {
  name: string;
  email: string;
  subject?: string | undefined;
  message: string;
}

/** Counted before the body is validated, so malformed floods count too. */
export async function throttleContactByAddress(limiter: RateLimiter, ip: string): Promise<void> {
  const result = await limiter.hit(
    `contact:ip:${ip}`,
    CONTACT_RATE_LIMITS.perIp,
    CONTACT_RATE_LIMITS.windowSec,
  );
  if (!result.allowed) throw tooManyRequests(result.retryAfterSec);
}

/** The message as the operator reads it: who wrote, about what, and their words line by line. */
export function contactMail(publicUrl: string, input: ContactMessage): MailBody {
  const about = input.subject ?? `a message from ${input.name}`;
  return {
    subject: `Contact form: ${about}`,
    heading: `A message from ${input.name}`,
    paragraphs: [
      `${input.name} <${input.email}> wrote through the contact page${input.subject ? ` about "${input.subject}"` : ''}. Reply to this email to answer them.`,
      ...input.message
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean),
    ],
    after: [`Sent from ${publicUrl}/contact.`],
  };
}

/**
 * POST /api/contact: one more message from this sender's email within the limit, queued in the
 * mail outbox (ADR 0015) to the operator with Reply-To the sender. Nothing goes back to the
 * sender: the address is not proven theirs, and a copy would let anyone have the site mail
 * any address.
 */
export async function sendContactMessage(
  deps: { db: Db; mailer: Mailer; limiter: RateLimiter; contactEmail: string; publicUrl: string },
  input: ContactMessage,
): Promise<void> {
  const result = await deps.limiter.hit(
    `contact:email:${input.email}`,
    CONTACT_RATE_LIMITS.perEmail,
    CONTACT_RATE_LIMITS.windowSec,
  );
  if (!result.allowed) throw tooManyRequests(result.retryAfterSec);
  await deps.mailer.queue(
    deps.db,
    `contact:${randomUUID()}`,
    deps.contactEmail,
    contactMail(deps.publicUrl, input),
    { replyTo: input.email },
  );
}
