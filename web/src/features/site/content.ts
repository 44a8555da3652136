import { SITE_NAME } from '@streamshop/contract/seo.ts';

/**
 * The words of the Help Center, the Privacy Policy, the Terms of Service and the contact page:
 * plain default text for whoever runs this site to edit (README, "Configuration"). Rebuild the web
 * app after editing. Have the policy and the terms checked for your country before you open a
 * shop to the public.
 *
 * In any paragraph or list item, `[words](/path)` is a link to a page of this site.
 */

/** The company the pages speak for; change it here if yours is not the product's name. */
export const COMPANY = SITE_NAME;

export interface SiteDocumentSection {
  heading: string;
  paragraphs?: string[];
  /** A bulleted list after the paragraphs. */
  items?: string[];
}

export interface SiteDocument {
  title: string;
  /** The paragraph under the title. */
  summary: string;
  /** When this version took effect, e.g. '3 March 2025'; unset, no date is shown. */
  updated?: string;
  sections: SiteDocumentSection[];
}

export const HELP_CENTER: SiteDocument = {
  title: 'Help Center',
  summary: `Answers to the questions people ask most about buying, watching and selling on ${COMPANY}. Cannot find yours? [Contact us](/contact).`,
  sections: [
    {
      heading: 'Buying',
      paragraphs: [
        'Browse the marketplace on [Explore](/explore), or search from the bar at the top. Each product shows its price, its condition and how many are left. Buy Now takes you to a secure checkout where you enter your shipping address and pay by card.',
        'After you pay, the order is on your dashboard and under [Your orders](/orders), with its status. When the seller ships it you see the carrier and the tracking number there.',
      ],
      items: [
        'Prices are in US dollars, and the total shown at checkout is what you pay.',
        'Your card details go straight to our payment provider; we never see or store the card number.',
        'A product is yours once the payment goes through. If someone else pays for the last one first, checkout tells you it has sold out and you are not charged.',
      ],
    },
    {
      heading: 'Watching live',
      paragraphs: [
        'Sellers go live in rooms. In a room you can watch, chat with the seller and other viewers, and buy the products the seller shows without leaving the stream. Ended streams stay on the seller’s storefront as replays you can still shop from.',
        'Chat follows the room’s rules: a seller and their moderators can remove messages and mute people who break them.',
      ],
    },
    {
      heading: 'Selling',
      paragraphs: [
        'Anyone with an account can sell. Add products from your dashboard, then press Go Live to stream from your browser, or use an encoder such as OBS with the server address and stream key shown on the Go Live page.',
        'On the free plan a live stream lasts up to 99 seconds. Pro gives you streams of up to 15 minutes, streaming to other platforms at the same time, HD quality and detailed analytics. Your sales, what to ship and your earnings are on the dashboard.',
      ],
    },
    {
      heading: 'Your account',
      items: [
        'Forgot your password? Use [Forgot password](/forgot-password) and we will email you a link to choose a new one.',
        'Change your name, email address or password, sign out of other devices, download your data or delete your account in [Settings](/settings).',
      ],
    },
    {
      heading: 'Still need help?',
      paragraphs: [
        'Write to us on the [contact page](/contact). For a question about an order, include the order number (on [Your orders](/orders)) so we can find it quickly.',
      ],
    },
  ],
};

export const PRIVACY_POLICY: SiteDocument = {
  title: 'Privacy Policy',
  summary: `This policy explains what personal information ${COMPANY} collects when you use this site, why, who it is shared with and the choices you have.`,
  sections: [
    {
      heading: 'What we collect',
      items: [
        'Account details: your name, email address, handle, an optional business name and profile picture, and your password (stored only as a secure hash).',
        'Orders: what you buy or sell, the amounts, and the shipping address given at checkout.',
        'Payments: handled by our payment provider. We receive the result of each payment, never your card number.',
        'What you publish: products, live video, replays and chat messages. These are public in the rooms and storefronts where you post them.',
        'Technical information: your IP address and the requests your browser makes, kept in logs to run the site, keep it secure and limit abuse.',
        'Messages you send us through the contact page, with the name and email address you give.',
      ],
    },
    {
      heading: 'Cookies',
      paragraphs: [
        'We use cookies only to keep you signed in and, for a few minutes, to finish signing in with another provider. Your browser’s storage remembers small things for this site, such as a notice you closed. We use no advertising or tracking cookies.',
      ],
    },
    {
      heading: 'How we use it',
      items: [
        'To run your account, the marketplace, live rooms and checkout.',
        'To send the emails the service needs: confirming your address, password resets, receipts and order updates.',
        'To keep the site safe: preventing fraud, spam and abuse, and enforcing our [Terms of Service](/terms).',
        'To answer you when you contact us.',
      ],
    },
    {
      heading: 'Who we share it with',
      paragraphs: [
        'When you buy, the seller receives your name, shipping address and order so they can send it to you. We use service providers to process payments, send email and host the site, only for those purposes. We do not sell your personal information.',
      ],
    },
    {
      heading: 'How long we keep it',
      paragraphs: [
        'We keep your account information while your account is open. Order and payment records are kept as long as the law requires for accounting and tax. Logs are kept for a short time unless needed to investigate abuse.',
      ],
    },
    {
      heading: 'Your choices',
      paragraphs: [
        'You can see and correct your details, download a copy of your data and delete your account in [Settings](/settings). For anything else about your information, [contact us](/contact).',
      ],
    },
    {
      heading: 'Changes',
      paragraphs: [
        'If we change this policy we will update this page, and tell you by email when the change is significant.',
      ],
    },
  ],
};

export const TERMS_OF_SERVICE: SiteDocument = {
  title: 'Terms of Service',
  summary: `These terms are the agreement between you and ${COMPANY} for using this site. By creating an account or buying on it you accept them.`,
  sections: [
    {
      heading: 'Your account',
      paragraphs: [
        'You must be old enough to make a binding contract where you live. Give accurate details, keep your password to yourself and tell us if you think someone else has used your account. You are responsible for what happens in it.',
      ],
    },
    {
      heading: 'Buying',
      paragraphs: [
        `Products are sold by independent sellers, not by ${COMPANY}. The seller is responsible for the product, its description and shipping it. Prices are in US dollars. A purchase is complete when the payment goes through.`,
        'If an order does not arrive or is not as described, contact the seller or [contact us](/contact) and we will help.',
      ],
    },
    {
      heading: 'Selling',
      items: [
        'Sell only items you own or have the right to sell, that are legal to sell and ship, and describe them honestly, including their condition.',
        'Ship paid orders promptly and add the tracking number.',
        `You are responsible for the taxes on your sales. ${COMPANY} may keep a platform fee from each sale, shown before it applies.`,
      ],
    },
    {
      heading: 'Live streams and content',
      paragraphs: [
        `You keep the rights to what you post. You allow ${COMPANY} to host, show and replay it on this site so the service can work.`,
        'Do not post anything illegal, hateful, harassing, sexually explicit or that infringes someone else’s rights, and do not use the site to spam or defraud. We may remove content and suspend accounts that break these rules.',
      ],
    },
    {
      heading: 'Plans and payment',
      paragraphs: [
        'The free plan costs nothing. Pro costs $9.99 per month, renews monthly until you cancel, and comes with a 30-day money-back guarantee on your first subscription.',
      ],
    },
    {
      heading: 'Ending your account',
      paragraphs: [
        'You can delete your account at any time in [Settings](/settings). We may suspend or close an account that breaks these terms.',
      ],
    },
    {
      heading: 'Liability',
      paragraphs: [
        `The site is provided as it is. We work to keep it available and secure but cannot promise it will always be. To the extent the law allows, ${COMPANY} is not liable for indirect losses, or for the products and conduct of sellers and buyers.`,
      ],
    },
    {
      heading: 'Changes and questions',
      paragraphs: [
        'We may update these terms; we will post the new version here and tell you by email about significant changes. Questions? [Contact us](/contact). See also our [Privacy Policy](/privacy).',
      ],
    },
  ],
};

export const CONTACT_PAGE = {
  title: 'Contact Us',
  summary:
    'Questions about an order, selling, or your account? Send us a message and we will reply by email.',
  /** Under the form. */
  note: 'Looking for a quick answer? Try the [Help Center](/help).',
} as const;
