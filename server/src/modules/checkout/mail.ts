import { MONEY_BACK_DAYS, PLAN_STREAM_SECONDS } from '@streamshop/contract/constants.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { MailBody } from '../../platform/mail/render.ts';

/** Checkout's messages, one template each (ADR 0015). Links are absolute on PUBLIC_URL. */

/** What checkout needs to send mail: the outbox and the site's public URL. */
export interface CheckoutMail {
  mailer: Mailer;
  publicUrl: string;
  /** PLATFORM_FEE_PERCENT, for the ledger entries written with each order (ADR 0016). */
  platformFeePercent?: number;
  /**
   * SESSION_SECRET: keys the hash of the address a money-back refund was claimed with, which the
   * first receipt, the subscription's view and the claim itself look up (once per address).
   */
  moneyBackSecret: string;
}

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
/** A day as the product shows it in words: "November 26, 2026" (UTC). */
export const formatLongDate = (date: Date) => longDate.format(date);

const dashboard = (publicUrl: string) => ({ label: 'Open your dashboard', url: `${publicUrl}/dashboard` });

/** A paid invoice of Pro (subscription.paid): the receipt, the first one a welcome too. */
export function proReceiptMail(
  publicUrl: string,
  receipt: {
    firstName: string;
    amountCents: number;
    paidAt: Date;
    paidUntil: Date;
    /** The provider's event id: what support looks the payment up by. */
    reference: string;
    firstInvoice: boolean;
    cancelAtPeriodEnd: boolean;
    /** The end of the money-back guarantee when it is open (the first invoice, never used). */
    refundableUntil: Date | null;
  },
): MailBody {
  const amount = formatCents(receipt.amountCents);
  const until = formatLongDate(receipt.paidUntil);
  const paragraphs = [
    `We received your payment of ${amount} for one month of StreamShop Pro on ${formatLongDate(receipt.paidAt)}. Receipt number: ${receipt.reference}.`,
  ];
  if (receipt.firstInvoice) {
    paragraphs.push(
      `Pro is on now: live streams up to ${PLAN_STREAM_SECONDS.pro / 60} minutes, streaming to other platforms (RTMP), HD quality and advanced analytics.`,
    );
  }
  paragraphs.push(
    receipt.cancelAtPeriodEnd
      ? `Pro stays until ${until}. You cancelled, so you will not be charged again.`
      : `Pro runs until ${until}, when it renews for ${amount} a month. You can cancel any time from your dashboard; Pro then stays until the end of the month you paid for.`,
  );
  if (receipt.refundableUntil) {
    paragraphs.push(
      `Not for you? With our ${MONEY_BACK_DAYS}-day money-back guarantee you get the full ${amount} back if you ask before ${formatLongDate(receipt.refundableUntil)}, from your dashboard.`,
    );
  }
  return {
    subject: `Your StreamShop Pro receipt (${amount})`,
    heading: receipt.firstInvoice
      ? `Welcome to Pro, ${receipt.firstName}!`
      : `Thanks, ${receipt.firstName}: your Pro subscription renewed`,
    paragraphs,
    action: dashboard(publicUrl),
    after: ['Keep this email as your receipt.'],
  };
}

/** The owner cancelled Pro at the end of the paid period. */
export function proCancelledMail(
  publicUrl: string,
  notice: { firstName: string; paidUntil: Date | null },
): MailBody {
  const until = notice.paidUntil ? formatLongDate(notice.paidUntil) : 'the end of the month you paid for';
  return {
    subject: notice.paidUntil
      ? `Your StreamShop Pro ends on ${until}`
      : 'Your StreamShop Pro subscription is cancelled',
    heading: `Pro stays until ${until}`,
    paragraphs: [
      `You cancelled StreamShop Pro, ${notice.firstName}. Nothing changes until ${until}: you keep every Pro feature until then, and you will not be charged again.`,
      'After that your account moves to the free plan. A stream that is live at that moment stays on Pro until it ends.',
      'Once Pro has ended you can subscribe again from your dashboard whenever you like.',
    ],
    action: dashboard(publicUrl),
  };
}

/** The money-back guarantee was used: the provider refunded Pro and the account is free. */
export function proRefundedMail(
  publicUrl: string,
  notice: { firstName: string; amountCents: number },
): MailBody {
  const amount = formatCents(notice.amountCents);
  return {
    subject: `We refunded ${amount} for StreamShop Pro`,
    heading: `Your ${amount} is on its way back`,
    paragraphs: [
      `As you asked, ${notice.firstName}, we refunded ${amount} under our ${MONEY_BACK_DAYS}-day money-back guarantee, to the card you paid with. Your bank may take a few days to show it.`,
      'Your account is on the free plan now and your Pro subscription has ended, so you will not be charged again. A stream that is live right now stays on Pro until it ends.',
      'The money-back guarantee can be used once per account. You can subscribe to Pro again whenever you like.',
    ],
    action: dashboard(publicUrl),
  };
}
