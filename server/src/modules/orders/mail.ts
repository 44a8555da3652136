import { carrierCode, carrierName, trackingUrl } from '@streamshop/contract/carriers.ts';
import { formatCents } from '@streamshop/contract/money.ts';
import { AUTO_DELIVERY_DAYS, type OrderAddress } from '@streamshop/contract/orders.ts';
import { addressLines } from '@streamshop/contract/shipping.ts';
import type { MailBody } from '../../platform/mail/render.ts';

/** An order's messages, one template each (ADR 0015, 0016). Links are absolute on PUBLIC_URL. */

export interface OrderMailFacts {
  /** The first name of the one the message goes to. */
  firstName: string;
  reference: string;
  title: string;
  amountCents: number;
  shippingCents: number;
  buyerHandle: string;
  sellerHandle: string;
  shippingAddress: OrderAddress | null;
}

/** The short reference buyers and sellers quote: the first 8 hex digits of the order's id. */
export const orderReference = (orderId: string) =>
  `#${orderId.replaceAll('-', '').slice(0, 8).toUpperCase()}`;

const purchases = (publicUrl: string) => ({ label: 'See your orders', url: `${publicUrl}/orders` });
const sales = (publicUrl: string) => ({ label: 'Open your sales', url: `${publicUrl}/dashboard?tab=sales` });

const totalLine = (facts: OrderMailFacts) =>
  facts.shippingCents > 0
    ? `${formatCents(facts.amountCents)} (${formatCents(facts.shippingCents)} of it shipping)`
    : formatCents(facts.amountCents);

/** To the buyer, once the payment succeeded. */
export function orderConfirmationMail(publicUrl: string, facts: OrderMailFacts): MailBody {
  return {
    subject: `Your order ${facts.reference}: ${facts.title}`,
    heading: `Thanks for your order, ${facts.firstName}`,
    paragraphs: [
      `You bought ${facts.title} from @${facts.sellerHandle} for ${totalLine(facts)}.`,
      facts.shippingAddress
        ? `It will be shipped to: ${addressLines(facts.shippingAddress).join(', ')}. We will email you the tracking number when @${facts.sellerHandle} ships it.`
        : `@${facts.sellerHandle} will let you know how you receive it.`,
      'You can cancel from your orders page until it ships, and get your money back in full.',
    ],
    action: purchases(publicUrl),
    after: [`Order ${facts.reference}. Keep this email as your receipt.`],
  };
}

/** To the seller, once the payment succeeded: what to send, and where. */
export function orderSoldMail(publicUrl: string, facts: OrderMailFacts): MailBody {
  return {
    subject: `You sold ${facts.title} (${facts.reference})`,
    heading: `You sold ${facts.title}`,
    paragraphs: [
      `@${facts.buyerHandle} paid ${totalLine(facts)} for ${facts.title}.`,
      ...(facts.shippingAddress
        ? [
            `Ship it to: ${addressLines(facts.shippingAddress).join(', ')}.`,
            'Then mark it shipped with the carrier and tracking number from your sales, so the buyer can follow it.',
          ]
        : ['It is not shipped: mark it delivered from your sales once the buyer has it.']),
    ],
    action: sales(publicUrl),
    after: [`Order ${facts.reference}.`],
  };
}

/** To the buyer, when the seller shipped it. */
export function orderShippedMail(
  publicUrl: string,
  facts: OrderMailFacts & { carrier: string; trackingNumber: string },
): MailBody {
  const link = trackingUrl(facts.carrier, facts.trackingNumber);
  // 'Other' names no carrier: the sentence goes without one.
  const carrier = carrierCode(facts.carrier) === 'other' ? null : carrierName(facts.carrier);
  return {
    subject: `Your order ${facts.reference} has shipped`,
    heading: `${facts.title} is on its way`,
    paragraphs: [
      `@${facts.sellerHandle} shipped your order${carrier ? ` with ${carrier}` : ''}, tracking number ${facts.trackingNumber}.`,
      ...(link ? [`Track it with ${carrier}: ${link}`] : []),
      `Mark it delivered on your orders page when it arrives; it counts as delivered by itself ${AUTO_DELIVERY_DAYS} days after shipping.`,
    ],
    action: purchases(publicUrl),
    after: [`Order ${facts.reference}.`],
  };
}

/** To the buyer, when the seller refunded the order. */
export function orderRefundedMail(publicUrl: string, facts: OrderMailFacts): MailBody {
  const amount = formatCents(facts.amountCents);
  return {
    subject: `@${facts.sellerHandle} refunded ${amount} for order ${facts.reference}`,
    heading: `Your ${amount} is on its way back`,
    paragraphs: [
      `@${facts.sellerHandle} refunded your order of ${facts.title} in full, ${amount}, to the card you paid with. Your bank may take a few days to show it.`,
    ],
    action: purchases(publicUrl),
    after: [`Order ${facts.reference}.`],
  };
}

/** To the buyer, who cancelled before it shipped. */
export function orderCancelledMail(publicUrl: string, facts: OrderMailFacts): MailBody {
  const amount = formatCents(facts.amountCents);
  return {
    subject: `Your order ${facts.reference} is cancelled`,
    heading: 'Your order is cancelled',
    paragraphs: [
      `You cancelled your order of ${facts.title} from @${facts.sellerHandle}. We refunded ${amount} to the card you paid with; your bank may take a few days to show it.`,
    ],
    action: purchases(publicUrl),
    after: [`Order ${facts.reference}.`],
  };
}

/** To the seller, whose buyer cancelled: do not ship it. */
export function orderCancelledForSellerMail(publicUrl: string, facts: OrderMailFacts): MailBody {
  return {
    subject: `Order ${facts.reference} was cancelled: do not ship it`,
    heading: `@${facts.buyerHandle} cancelled their order`,
    paragraphs: [
      `@${facts.buyerHandle} cancelled their order of ${facts.title} before it shipped, so do not send it. They got ${formatCents(facts.amountCents)} back, and the unit is back in your stock.`,
    ],
    action: sales(publicUrl),
    after: [`Order ${facts.reference}.`],
  };
}
