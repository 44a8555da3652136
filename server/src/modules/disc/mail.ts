import type { BetaSource } from '@streamshop/contract/disc.ts';
import { discUnitPriceCents, formatCents } from '@streamshop/contract/money.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { MailBody } from '../../platform/mail/render.ts';

/**
 * The Stream Disc site's messages, one template each (ADR 0015): what the forms promise by email.
 * Links are absolute on PUBLIC_URL.
 */

/** What a disc service needs to send mail: the outbox and the site's public URL. */
export interface DiscMail {
  mailer: Mailer;
  publicUrl: string;
}

/**
 * The reference a buyer quotes: a letter for the form (R reservation, F Founders Batch, O order)
 * and the first 8 hex digits of the row's id, which support finds with `id::text like '…%'`.
 */
export function discReference(kind: 'R' | 'F' | 'O', id: string): string {
  return `SD${kind}-${id.replaceAll('-', '').slice(0, 8).toUpperCase()}`;
}

const discs = (quantity: number) => (quantity === 1 ? '1 Stream Disc' : `${quantity} Stream Discs`);

const PAGE_OF_SOURCE: Partial<Record<BetaSource, string>> = {
  music: '/stream-disc/music',
  film: '/stream-disc/film',
};

/** The beta sign-up (or, from the landing page's modal, the newsletter sign-up) is recorded. */
export function betaSignupMail(publicUrl: string, signup: { email: string; source: string }): MailBody {
  if (signup.source === 'landing') {
    return {
      subject: "You're subscribed to the StreamShop newsletter",
      heading: 'Welcome to the StreamShop newsletter',
      paragraphs: [
        `We will write to ${signup.email} with launch dates, Founders Batch news and the first creator drops.`,
      ],
      action: { label: 'Visit StreamShop', url: `${publicUrl}/` },
    };
  }
  const page = PAGE_OF_SOURCE[signup.source as BetaSource] ?? '/stream-disc';
  return {
    subject: "You're on the Stream Disc beta list",
    heading: "You're in!",
    paragraphs: [
      `Thanks for signing up for Stream Disc beta access with ${signup.email}. We will email you when beta access opens, so you can be among the first to tap, stream and collect.`,
      'There is nothing else to do until then.',
    ],
    action: { label: 'See the Stream Disc', url: `${publicUrl}${page}` },
  };
}

/** The $1 deposit of a reservation was paid (the provider's webhook): the receipt. */
export function depositReceiptMail(
  publicUrl: string,
  preorder: { id: string; name: string; amountCents: number },
): MailBody {
  const reference = discReference('R', preorder.id);
  return {
    subject: `Receipt: your Stream Disc reservation (${formatCents(preorder.amountCents)} deposit)`,
    heading: `Thanks, ${preorder.name}: your Stream Disc is reserved`,
    paragraphs: [
      `We received your ${formatCents(preorder.amountCents)} deposit. It holds one Stream Disc for you from the first batch.`,
      `What you bought: Stream Disc pre-order reservation (deposit). Amount paid: ${formatCents(preorder.amountCents)}. Reference: ${reference}.`,
      'What happens next: your full invoice arrives by email within 3-5 business days, and you pay the rest when your disc is ready to ship.',
    ],
    action: { label: 'See the Stream Disc', url: `${publicUrl}/stream-disc` },
    after: [`Keep this email as your receipt, and quote ${reference} if you write to us about it.`],
  };
}

/** A 'Limited Founders Batch Edition' pre-order is recorded: nothing paid yet, the invoice follows. */
export function foundersPreorderMail(
  publicUrl: string,
  preorder: { id: string; name: string; quantity: number; totalPriceCents: number },
): MailBody {
  const reference = discReference('F', preorder.id);
  const unit = formatCents(discUnitPriceCents(preorder.quantity));
  return {
    subject: `Your Founders Batch pre-order: ${discs(preorder.quantity)}, ${formatCents(preorder.totalPriceCents)}`,
    heading: `Thanks, ${preorder.name}: your Founders Batch order is reserved`,
    paragraphs: [
      `What you reserved: ${discs(preorder.quantity)} of the Limited Founders Batch Edition at ${unit} each. Total order value: ${formatCents(preorder.totalPriceCents)}. Reference: ${reference}.`,
      'Nothing has been charged. What happens next: a full invoice is emailed to you within 3-5 business days, and we let you know when your discs are ready to ship.',
    ],
    action: { label: 'See the Stream Disc', url: `${publicUrl}/stream-disc` },
    after: [`Quote ${reference} if you write to us about this order.`],
  };
}

/** The full 'Order Stream Disc' form is recorded: nothing paid yet, the team follows up. */
export function discOrderMail(
  publicUrl: string,
  order: {
    id: string;
    name: string;
    quantity: number;
    shippingAddress: string;
    city: string;
    state: string;
    zipCode: string;
    country: string;
  },
): MailBody {
  const reference = discReference('O', order.id);
  const unitCents = discUnitPriceCents(order.quantity);
  return {
    subject: `We received your Stream Disc order (${discs(order.quantity)})`,
    heading: `Thanks, ${order.name}: your order is in`,
    paragraphs: [
      `What you ordered: ${discs(order.quantity)}, to ship to ${order.shippingAddress}, ${order.city}, ${order.state} ${order.zipCode}, ${order.country}. Reference: ${reference}.`,
      `Estimated price: ${formatCents(unitCents * order.quantity)} (${formatCents(unitCents)} per disc at this quantity). Nothing has been charged.`,
      'What happens next: we contact you soon to confirm the run, the artwork and the price tier, with the payment details. Nothing is pressed or charged before you agree.',
    ],
    action: { label: 'See the Stream Disc', url: `${publicUrl}/stream-disc` },
    after: [`Quote ${reference} if you write to us about this order.`],
  };
}
