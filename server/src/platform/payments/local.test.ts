import { TEST_CARDS } from '@streamshop/contract/payments.ts';
import { describe, expect, it } from 'vitest';
import { cardBrand, DECLINE_MESSAGES, decideCard, decideSetup, passesLuhn } from './local-cards.ts';
import { parseLocalEvent, signLocalPayload, verifyLocalSignature } from './local-signature.ts';
import { WebhookSignatureError } from './provider.ts';

const now = new Date('2026-11-23T12:00:00Z');
const card = (number: string, expMonth = 12, expYear = 2030) => ({ number, expMonth, expYear, cvc: '123' });

describe('decideCard', () => {
  it('follows the test-card conventions', () => {
    expect(decideCard(card(TEST_CARDS.success), now)).toEqual({ kind: 'approved', last4: '4242' });
    expect(decideCard(card(TEST_CARDS.successMastercard), now).kind).toBe('approved');
    expect(decideCard(card(TEST_CARDS.requiresAuthentication), now)).toEqual({
      kind: 'requires_action',
      last4: '3155',
    });
    expect(decideCard(card(TEST_CARDS.declined), now)).toEqual({
      kind: 'declined',
      message: DECLINE_MESSAGES.declined,
    });
    expect(decideCard(card(TEST_CARDS.insufficientFunds), now)).toEqual({
      kind: 'declined',
      message: DECLINE_MESSAGES.insufficientFunds,
    });
    expect(decideCard(card('4111111111111111'), now)).toEqual({
      kind: 'declined',
      message: DECLINE_MESSAGES.notTestCard,
    });
  });

  it('accepts a card through the last day of its expiry month, in two- or four-digit years', () => {
    expect(decideCard(card(TEST_CARDS.success, 11, 26), now).kind).toBe('approved');
    expect(decideCard(card(TEST_CARDS.success, 10, 2026), now)).toEqual({
      kind: 'declined',
      message: DECLINE_MESSAGES.pastExpiry,
    });
  });

  it('checks the Luhn digit', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
  });
});

describe('decideSetup (saving a card)', () => {
  it('saves 4000 0000 0000 0341, whose payments are declined, and refuses what a payment refuses', () => {
    expect(decideSetup(card(TEST_CARDS.declineAfterAttach), now)).toEqual({
      kind: 'approved',
      last4: '0341',
    });
    expect(decideCard(card(TEST_CARDS.declineAfterAttach), now).kind).toBe('declined');
    expect(decideSetup(card(TEST_CARDS.declineAfterAttach, 10, 2026), now).kind).toBe('declined');
    expect(decideSetup(card(TEST_CARDS.declined), now).kind).toBe('declined');
    expect(decideSetup(card(TEST_CARDS.requiresAuthentication), now)).toEqual({
      kind: 'declined',
      message: DECLINE_MESSAGES.setupNeedsAuthentication,
    });
  });

  it('names the brand by the number', () => {
    expect(cardBrand(TEST_CARDS.success)).toBe('visa');
    expect(cardBrand(TEST_CARDS.successMastercard)).toBe('mastercard');
  });
});

describe('local webhook signatures', () => {
  const secret = 'a'.repeat(64);
  const body = JSON.stringify({
    id: 'evt_1',
    createdAt: now.toISOString(),
    type: 'ignored',
    providerType: 'x',
  });

  it('accepts its own signature and parses the event', () => {
    expect(() => verifyLocalSignature(secret, body, signLocalPayload(secret, body, now), now)).not.toThrow();
    expect(parseLocalEvent(body)).toMatchObject({ id: 'evt_1', type: 'ignored', createdAt: now });
  });

  it('refuses another secret, another body, an old signature and garbage', () => {
    const signature = signLocalPayload(secret, body, now);
    expect(() => verifyLocalSignature('b'.repeat(64), body, signature, now)).toThrow(WebhookSignatureError);
    expect(() => verifyLocalSignature(secret, `${body} `, signature, now)).toThrow(WebhookSignatureError);
    const later = new Date(now.getTime() + 301_000);
    expect(() => verifyLocalSignature(secret, body, signature, later)).toThrow(WebhookSignatureError);
    expect(() => verifyLocalSignature(secret, body, 't=x,v1=y', now)).toThrow(WebhookSignatureError);
    expect(() => verifyLocalSignature(secret, body, undefined, now)).toThrow(WebhookSignatureError);
    expect(() => parseLocalEvent('{"id":"x"}')).toThrow(WebhookSignatureError);
  });
});
