import { TEST_CARDS } from '@streamshop/contract/payments.ts';

/** What the local card network decides for a card: the common test-card conventions. */
export type CardOutcome =
  | { kind: 'approved'; last4: string }
  | { kind: 'requires_action'; last4: string }
  | { kind: 'declined'; message: string };

export const DECLINE_MESSAGES = {
  declined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expiredCard: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  incorrectNumber: 'Your card number is incorrect.',
  pastExpiry: "Your card's expiration date is in the past.",
  notTestCard:
    'Your card was declined. This is the local test payment provider: use a test card such as 4242 4242 4242 4242.',
  authenticationFailed:
    'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
} as const;

export function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export interface Card {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** Decides a card payment as a test-mode card network would. `number` holds digits only. */
export function decideCard(card: Card, now: Date): CardOutcome {
  const last4 = card.number.slice(-4);
  if (!passesLuhn(card.number)) return { kind: 'declined', message: DECLINE_MESSAGES.incorrectNumber };
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  // A card is valid through the last day of its expiry month.
  const expiresAt = Date.UTC(year, card.expMonth, 1);
  if (expiresAt <= now.getTime()) return { kind: 'declined', message: DECLINE_MESSAGES.pastExpiry };
  switch (card.number) {
    case TEST_CARDS.success:
    case TEST_CARDS.successMastercard:
      return { kind: 'approved', last4 };
    case TEST_CARDS.requiresAuthentication:
      return { kind: 'requires_action', last4 };
    case TEST_CARDS.declined:
      return { kind: 'declined', message: DECLINE_MESSAGES.declined };
    case TEST_CARDS.insufficientFunds:
      return { kind: 'declined', message: DECLINE_MESSAGES.insufficientFunds };
    case TEST_CARDS.expiredCard:
      return { kind: 'declined', message: DECLINE_MESSAGES.expiredCard };
    case TEST_CARDS.incorrectCvc:
      return { kind: 'declined', message: DECLINE_MESSAGES.incorrectCvc };
    default:
      return { kind: 'declined', message: DECLINE_MESSAGES.notTestCard };
  }
}
