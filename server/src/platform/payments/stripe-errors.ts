/** Stripe's errors as ProviderErrors, with every secret taken out of their messages. */
import Stripe from 'stripe';
import { ProviderError } from './provider.ts';

/**
 * What to throw for an error of a Stripe call: a Stripe error becomes a ProviderError that keeps
 * Stripe's message (it tells an operator what went wrong) but never a key; anything else (a bug in
 * this code) is thrown as it is.
 */
export function toProviderError(operation: string, error: unknown, secrets: string[]): unknown {
  if (error instanceof ProviderError) return error;
  if (error instanceof Stripe.errors.StripeError) {
    const details = [error.code, error.statusCode && `HTTP ${error.statusCode}`, error.requestId]
      .filter(Boolean)
      .join(', ');
    const message = redact(error.message || error.type, secrets);
    return new ProviderError(`Stripe ${operation} failed: ${message}${details ? ` (${details})` : ''}`);
  }
  return error;
}

/** Removes the configured secrets and anything shaped like a Stripe secret from a message. */
export function redact(message: string, secrets: string[]): string {
  let result = message;
  for (const secret of secrets) result = result.split(secret).join('[redacted]');
  return result.replace(/\b(sk|rk)_(live|test)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9]+/g, '[redacted]');
}
