import { z } from 'zod';
import { emailField, requiredName } from './auth.ts';
import { textSchema } from './text.ts';

/**
 * The site's own pages: the addresses of the operator's other sites (set on the server, shown
 * only when set) and the contact form. The same schema checks the form in the browser and the
 * body on the server.
 */

/** GET: the external links this server is configured with. */
export const SITE_LINKS_URL = '/api/site/links';

/**
 * Each link's address, or null when the operator has not set it (the link is then not shown).
 * Env vars: DROP_MODE_URL, STREAM_DISC_URL, STREAMSHOP_LIVE_URL, NEWSLETTER_FORM_URL, PRESS_KIT_URL.
 */
export const siteLinksSchema = z.object({
  /** Drop Mode, the creator tool: the nav bar's link, the drawer's and the landing page's logo. */
  dropMode: z.string().nullable(),
  /** The Stream Disc's own site: the drawer's and the landing page's logo. */
  streamDisc: z.string().nullable(),
  /** StreamShop Live: the landing page's product card. */
  streamshopLive: z.string().nullable(),
  /** An external newsletter form: the landing page's "Open the newsletter form". */
  newsletterForm: z.string().nullable(),
  /** The Founders Batch press kit: the blog article's external link. */
  pressKit: z.string().nullable(),
});
export type SiteLinks = z.infer<typeof siteLinksSchema>;

/** Every link unset: what the web shows before (or without) the server's answer. */
export const NO_SITE_LINKS: SiteLinks = {
  dropMode: null,
  streamDisc: null,
  streamshopLive: null,
  newsletterForm: null,
  pressKit: null,
};

/** POST: a message from the contact page to the site's operator. */
export const CONTACT_URL = '/api/contact';

export const CONTACT_LIMITS = { name: 120, subject: 150, message: 5000 } as const;

export const contactBodySchema = z.object({
  name: requiredName('Name', CONTACT_LIMITS.name),
  email: emailField,
  /** Blank or missing: none. */
  subject: textSchema('Subject')
    .max(CONTACT_LIMITS.subject, `Subject must be at most ${CONTACT_LIMITS.subject} characters`)
    .optional()
    .transform((value) => (value ? value : undefined)),
  message: textSchema('Message', { multiline: true })
    .min(1, 'Message is required')
    .max(CONTACT_LIMITS.message, `Message must be at most ${CONTACT_LIMITS.message} characters`),
});
export type ContactBody = z.input<typeof contactBodySchema>;

export const contactResponseSchema = z.object({ ok: z.literal(true) });
