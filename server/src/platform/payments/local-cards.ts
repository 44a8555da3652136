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
  setupNeedsAuthentication:
    'This test card asks for an extra confirmation step, which saving a card here does not offer. Use 4242 4242 4242 4242.',
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
  // A card is valid through the last day of its expiry month.
  if (cardExpired(card.expMonth, card.expYear, now))
    return { kind: 'declined', message: DECLINE_MESSAGES.pastExpiry };
  switch (card.number) {
    case TEST_CARDS.success:
    case TEST_CARDS.successMastercard:
      return { kind: 'approved', last4 };
    case TEST_CARDS.requiresAuthentication:
      return { kind: 'requires_action', last4 };
    case TEST_CARDS.declined:
    case TEST_CARDS.declineAfterAttach:
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

/**
 * Decides saving a card (a setup), as a test-mode network would: as a payment, except that
 * 4000 0000 0000 0341 saves (its charges are declined later), and the extra confirmation step of
 * 4000 0025 0000 3155 is not offered for a setup, so that card is refused with a message that says so.
 */
export function decideSetup(card: Card, now: Date): CardOutcome {
  if (card.number === TEST_CARDS.declineAfterAttach) {
    const outcome = decideCard({ ...card, number: TEST_CARDS.success }, now);
    return outcome.kind === 'approved' ? { kind: 'approved', last4: card.number.slice(-4) } : outcome;
  }
  const outcome = decideCard(card, now);
  if (outcome.kind === 'requires_action') {
    return { kind: 'declined', message: DECLINE_MESSAGES.setupNeedsAuthentication };
  }
  return outcome;
}

/** The brand a card number names: what a saved card shows. */
export function cardBrand(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

/** Whether a card's expiry month is over at `now` (valid through its last day). */
export function cardExpired(expMonth: number, expYear: number, now: Date): boolean {
  const year = expYear < 100 ? 2000 + expYear : expYear;
  return Date.UTC(year, expMonth, 1) <= now.getTime();
}
