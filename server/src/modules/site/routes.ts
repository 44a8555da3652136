import { errorBodySchema } from '@streamshop/contract/errors.ts';
import {
  CONTACT_URL,
  contactBodySchema,
  contactResponseSchema,
  SITE_LINKS_URL,
  type SiteLinks,
  siteLinksSchema,
} from '@streamshop/contract/site.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SiteLinkSettings } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { addressBucket } from '../../platform/address-bucket.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { sendContactMessage, throttleContactByAddress } from './contact.ts';

/** A 5,000-character message of four-byte characters, with its JSON around it. */
export const CONTACT_BODY_LIMIT = 32 * 1024;

/** The operator's settings as the web reads them: an unset link is null. */
function siteLinksOf(settings: SiteLinkSettings): SiteLinks {
  return {
    dropMode: settings.dropMode ?? null,
    streamDisc: settings.streamDisc ?? null,
    streamshopLive: settings.streamshopLive ?? null,
    newsletterForm: settings.newsletterForm ?? null,
    pressKit: settings.pressKit ?? null,
  };
}

export const siteRoutes: FastifyPluginAsyncZod<{
  db: Db;
  mailer: Mailer;
  limiter: RateLimiter;
  siteLinks: SiteLinkSettings;
  contactEmail: string;
  publicUrl: string;
}> = async (app, { db, mailer, limiter, siteLinks, contactEmail, publicUrl }) => {
  const links = siteLinksOf(siteLinks);
  app.get(SITE_LINKS_URL, { schema: { response: { 200: siteLinksSchema } } }, async () => links);

  app.post(
    CONTACT_URL,
    {
      bodyLimit: CONTACT_BODY_LIMIT,
      preValidation: async (request) => throttleContactByAddress(limiter, addressBucket(request.ip)),
      schema: {
        body: contactBodySchema,
        response: {
          202: contactResponseSchema,
          400: errorBodySchema,
          413: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      await sendContactMessage({ db, mailer, limiter, contactEmail, publicUrl }, request.body);
      return reply.status(202).send({ ok: true as const });
    },
  );
};
