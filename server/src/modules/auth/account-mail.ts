import { RESET_PASSWORD_TTL_MINUTES, VERIFY_EMAIL_TTL_HOURS } from '@streamshop/contract/account-recovery.ts';
import type { MailBody } from '../../platform/mail/render.ts';

/** The account's own messages, one template each (ADR 0015). Links are absolute on PUBLIC_URL. */

const link = (publicUrl: string, pathname: string, token: string) =>
  `${publicUrl}${pathname}?token=${encodeURIComponent(token)}`;

export function verifyEmailMail(
  publicUrl: string,
  to: { firstName: string; email: string },
  token: string,
): MailBody {
  return {
    subject: 'Confirm your email address',
    heading: `Welcome to StreamShop, ${to.firstName}!`,
    paragraphs: [
      `Please confirm that ${to.email} is your address. We use it to send your receipts and to help you back into your account if you ever forget your password.`,
    ],
    action: { label: 'Confirm my email', url: link(publicUrl, '/verify-email', token) },
    after: [
      `The link works for ${VERIFY_EMAIL_TTL_HOURS} hours. If you did not sign up for StreamShop, ignore this message: nothing happens without the link.`,
    ],
  };
}

export function resetPasswordMail(publicUrl: string, to: { firstName: string }, token: string): MailBody {
  return {
    subject: 'Choose a new password',
    heading: `Hi ${to.firstName},`,
    paragraphs: ['Someone (we hope you) asked to reset the password of your StreamShop account.'],
    action: { label: 'Choose a new password', url: link(publicUrl, '/reset-password', token) },
    after: [
      `The link works for ${RESET_PASSWORD_TTL_MINUTES} minutes and only once. If you did not ask for it, ignore this message: your password stays as it is.`,
    ],
  };
}

export function passwordChangedMail(publicUrl: string, to: { firstName: string }): MailBody {
  return {
    subject: 'Your password was changed',
    heading: `Hi ${to.firstName},`,
    paragraphs: [
      'The password of your StreamShop account was just changed, and every other device was signed out.',
    ],
    action: { label: 'Reset it again', url: `${publicUrl}/forgot-password` },
    after: [
      'If this was you, there is nothing to do. If it was not, reset your password now with the link above.',
    ],
  };
}
