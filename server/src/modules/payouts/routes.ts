import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  balanceSchema,
  ledgerQuerySchema,
  ledgerSchema,
  onboardingLinkSchema,
  payoutAccountSchema,
} from '@streamshop/contract/orders.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import type { PaymentProvider } from '../../platform/payments/provider.ts';
import { SIGNED_IN, signedInUser } from '../../platform/sessions.ts';
import { payoutAccount, startOnboarding } from './accounts.ts';
import { balanceOf, ledgerPageOf, startLocalPayouts } from './service.ts';

/** The caller's earnings as a seller, and where the provider pays them (ADR 0016). */
export const payoutRoutes: FastifyPluginAsyncZod<{
  db: Db;
  provider: PaymentProvider;
  publicUrl: string;
  /** The local provider's daily payouts (default on when the provider has no seller accounts). */
  localPayouts?: { enabled?: boolean; everyMs?: number; intervalMs?: number } | undefined;
}> = async (app, { db, provider, publicUrl, localPayouts }) => {
  if (!provider.sellerAccounts && localPayouts?.enabled !== false) {
    app.addHook('onClose', startLocalPayouts(db, app.log, localPayouts));
  }
  app.get(
    '/api/payouts/balance',
    { config: SIGNED_IN, schema: { response: { 200: balanceSchema, 401: errorBodySchema } } },
    async (request) => balanceOf(db, signedInUser(request).id),
  );
  app.get(
    '/api/payouts/ledger',
    {
      config: SIGNED_IN,
      schema: {
        querystring: ledgerQuerySchema,
        response: { 200: ledgerSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => ledgerPageOf(db, signedInUser(request).id, request.query),
  );
  app.get(
    '/api/payouts/account',
    {
      config: SIGNED_IN,
      schema: { response: { 200: payoutAccountSchema, 401: errorBodySchema, 502: errorBodySchema } },
    },
    async (request) => payoutAccount(db, provider, signedInUser(request).id),
  );
  app.post(
    '/api/payouts/onboarding',
    {
      config: SIGNED_IN,
      schema: {
        response: {
          200: onboardingLinkSchema,
          401: errorBodySchema,
          409: errorBodySchema,
          502: errorBodySchema,
        },
      },
    },
    async (request) => startOnboarding(db, provider, signedInUser(request).id, publicUrl),
  );
};
