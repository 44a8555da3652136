import {
  BETA_DUPLICATE_MESSAGE,
  type betaSignupBodySchema,
  type discOrderBodySchema,
  type NewsletterPreorder,
  type newsletterPreorderBodySchema,
  PREORDER_DUPLICATE_MESSAGE,
} from '@streamshop/contract/disc.ts';
import { discTotalPrice, discUnitPriceCents } from '@streamshop/contract/money.ts';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/client.ts';
import { badRequest, conflict, tooManyRequests } from '../../platform/errors.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import {
  betaSignupMail,
  type DiscMail,
  depositReceiptMail,
  discOrderMail,
  foundersPreorderMail,
} from './mail.ts';
import {
  insertBetaSignup,
  insertDiscOrder,
  insertNewsletterPreorder,
  markDiscPreorderPaid,
  uniqueViolation,
} from './repo.ts';

export type { DiscMail } from './mail.ts';

export type BetaSignupInput = z.output<typeof betaSignupBodySchema>;
export type NewsletterPreorderInput = z.output<typeof newsletterPreorderBodySchema>;
export type DiscOrderInput = z.output<typeof discOrderBodySchema>;

/** Submissions allowed per client address and form, per window: generous for people, not for bots. */
export const DISC_FORM_LIMITS = { perIp: 20, windowSec: 600 };

export type DiscForm = 'beta' | 'preorder' | 'reservation' | 'order';

/** Counts one submission of a public form from this address; throws 429 past the limit. */
export async function throttleDiscForm(limiter: RateLimiter, form: DiscForm, ip: string): Promise<void> {
  const result = await limiter.hit(
    `disc:${form}:ip:${ip}`,
    DISC_FORM_LIMITS.perIp,
    DISC_FORM_LIMITS.windowSec,
  );
  if (!result.allowed) throw tooManyRequests(result.retryAfterSec);
}

/**
 * Records an email for beta access and queues its confirmation with it; an email already
 * registered (any case) is a 409, and gets no second message.
 */
export async function registerBetaSignup(db: Db, mail: DiscMail, input: BetaSignupInput): Promise<void> {
  const signup = { email: input.email, source: input.source ?? 'site' };
  try {
    await db.transaction(async (tx) => {
      const id = await insertBetaSignup(tx, signup);
      await mail.mailer.queue(tx, `beta-signup:${id}`, signup.email, betaSignupMail(mail.publicUrl, signup));
    });
  } catch (error) {
    if (uniqueViolation(error) === 'beta_signups_email_key') {
      throw conflict('CONFLICT', BETA_DUPLICATE_MESSAGE, { email: 'is already registered' });
    }
    throw error;
  }
}

/**
 * Reserves discs of the Limited Founders Batch Edition, and queues its confirmation with it. The
 * total is computed here from the quantity and the tier table; a client total that disagrees is
 * refused, never stored.
 */
export async function createNewsletterPreorder(
  db: Db,
  mail: DiscMail,
  input: NewsletterPreorderInput,
): Promise<NewsletterPreorder> {
  const totalPrice = discTotalPrice(input.quantity);
  if (input.totalPrice !== totalPrice) {
    throw badRequest(`Invalid totalPrice: ${input.quantity} discs cost ${totalPrice}`, {
      totalPrice: `does not match the price for ${input.quantity} discs (${totalPrice})`,
    });
  }
  const preorder = {
    name: input.name,
    email: input.email,
    quantity: input.quantity,
    totalPriceCents: discUnitPriceCents(input.quantity) * input.quantity,
  };
  try {
    const id = await db.transaction(async (tx) => {
      const id = await insertNewsletterPreorder(tx, preorder);
      await mail.mailer.queue(
        tx,
        `founders-preorder:${id}`,
        preorder.email,
        foundersPreorderMail(mail.publicUrl, { id, ...preorder }),
      );
      return id;
    });
    return { id, quantity: input.quantity, totalPrice };
  } catch (error) {
    if (uniqueViolation(error) === 'newsletter_preorders_email_key') {
      throw conflict('CONFLICT', PREORDER_DUPLICATE_MESSAGE, { email: 'already has a pre-order' });
    }
    throw error;
  }
}

/** Records a full disc order and queues its receipt with it; the team follows up with payment details. */
export async function createDiscOrder(
  db: Db,
  mail: DiscMail,
  input: DiscOrderInput,
): Promise<{ id: string }> {
  const order = {
    name: input.name,
    email: input.email,
    phone: input.phone ?? null,
    company: input.company ?? null,
    quantity: input.quantity,
    shippingAddress: input.shippingAddress,
    city: input.city,
    state: input.state,
    zipCode: input.zipCode,
    country: input.country,
  };
  const id = await db.transaction(async (tx) => {
    const id = await insertDiscOrder(tx, order);
    await mail.mailer.queue(
      tx,
      `disc-order:${id}`,
      order.email,
      discOrderMail(mail.publicUrl, { id, ...order }),
    );
    return id;
  });
  return { id };
}

/**
 * The $1 deposit was paid (in the payment webhook's transaction, once per payment): the pre-order
 * is paid and its receipt is queued in the same transaction.
 */
export async function confirmDiscPreorder(
  tx: Tx,
  mail: DiscMail,
  payment: { id: string; amountCents: number },
): Promise<void> {
  const preorder = await markDiscPreorderPaid(tx, payment.id);
  if (!preorder) return;
  await mail.mailer.queue(
    tx,
    `disc-preorder:${preorder.id}`,
    preorder.email,
    depositReceiptMail(mail.publicUrl, { ...preorder, amountCents: payment.amountCents }),
  );
}
