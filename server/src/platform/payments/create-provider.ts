import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { localProvider } from './local.ts';
import type { PaymentProvider } from './provider.ts';
import { stripeProvider } from './stripe.ts';

/** Stripe when it is configured, otherwise the local provider, so everything runs offline. */
export function createPaymentProvider(config: Config, db: Db, log?: FastifyBaseLogger): PaymentProvider {
  if (config.stripe) return stripeProvider(config.stripe);
  // The local webhook secret is derived from the session secret: stable across restarts and instances.
  const webhookSecret = createHmac('sha256', config.sessionSecret)
    .update('local-payments-webhook')
    .digest('hex');
  return localProvider(db, {
    webhookSecret,
    publicUrl: config.publicUrl,
    onLeaseError: (error) => log?.warn({ err: error }, 'renewing the lease of webhook events failed'),
  });
}
