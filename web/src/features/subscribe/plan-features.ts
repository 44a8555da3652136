import { PLAN_STREAM_SECONDS } from '@streamshop/contract/constants.ts';

/** A row of the free-vs-pro table: text, or true/false for included/not included. */
export interface PlanFeature {
  name: string;
  free: string | boolean;
  pro: string | boolean;
}

/** The six features of spec section 1, as the comparison table shows them. */
export const PLAN_FEATURES: readonly PlanFeature[] = [
  {
    name: 'Live stream length',
    free: `${PLAN_STREAM_SECONDS.free} seconds`,
    pro: `${PLAN_STREAM_SECONDS.pro / 60} minutes`,
  },
  { name: 'Stream to external platforms (RTMP)', free: false, pro: true },
  { name: 'Viewers', free: 'Basic', pro: 'Unlimited' },
  { name: 'Analytics', free: 'Basic stats', pro: 'Advanced analytics' },
  { name: 'Video quality', free: 'Standard', pro: 'HD' },
  { name: 'Support', free: 'Standard', pro: 'Priority' },
];

/** The five bullets of the price card. */
export const PRO_HIGHLIGHTS: readonly string[] = [
  `Live streams up to ${PLAN_STREAM_SECONDS.pro / 60} minutes`,
  'Stream to external platforms (RTMP)',
  'Unlimited viewers',
  'Advanced analytics',
  'HD quality and priority support',
];

/** The four questions of the spec's Pro upgrade page. */
export const PRO_FAQS: readonly { question: string; answer: string }[] = [
  {
    question: 'Can I cancel anytime?',
    answer:
      'Yes. Cancel from your dashboard whenever you like. Pro stays active until the end of your current billing period, then your account returns to the free plan.',
  },
  {
    question: 'What happens to my existing streams?',
    answer:
      'They stay safe. Your streams, recordings and products are kept whether you upgrade, cancel or go back to the free plan.',
  },
  {
    question: 'Is there a setup fee?',
    answer: 'No. There is no setup fee: your first month starts as soon as your payment goes through.',
  },
  {
    question: 'Is my payment secure?',
    answer:
      'Yes. Your card is handled by our card payment provider over an encrypted connection, and StreamShop never stores your full card number.',
  },
];
