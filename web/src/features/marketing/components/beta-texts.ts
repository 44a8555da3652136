export interface BetaDialogTexts {
  title: string;
  description: string;
  submitLabel: string;
  pendingLabel: string;
  /** The success view: a shout, a headline and a line under it. */
  successShout: string;
  successTitle: string;
  successText: string;
}

/** The disc and social pages' Join Beta texts (spec section 4). */
export const JOIN_BETA_TEXTS: BetaDialogTexts = {
  title: 'Join the Stream Disc Beta',
  description: 'Be first to tap, stream and collect. We will email you when beta access opens.',
  submitLabel: 'Join Beta',
  pendingLabel: 'Signing Up...',
  successShout: 'POW!',
  successTitle: "You're In!",
  successText: 'Welcome to the Stream Disc beta family! 🎉',
};

/** The landing page's newsletter modal. */
export const NEWSLETTER_TEXTS: BetaDialogTexts = {
  title: 'Get the StreamShop Newsletter',
  description: 'Launch dates, founders batch news and the first creator drops, straight to your inbox.',
  submitLabel: 'Subscribe to Newsletter',
  pendingLabel: 'Subscribing...',
  successShout: '',
  successTitle: 'Subscribed!',
  successText: 'Welcome to our newsletter!',
};
