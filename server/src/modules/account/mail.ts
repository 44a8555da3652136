import { CHANGE_EMAIL_TTL_HOURS } from '@streamshop/contract/account.ts';
import type { MailBody } from '../../platform/mail/render.ts';

/** The settings page's messages (ADR 0015). Links are absolute on PUBLIC_URL. */

export function confirmNewEmailMail(
  publicUrl: string,
  to: { firstName: string; email: string },
  token: string,
): MailBody {
  return {
    subject: 'Confirm your new email address',
    heading: `Hi ${to.firstName},`,
    paragraphs: [
      `You asked to use ${to.email} for your StreamShop account. Confirm it with the button below; until then your account keeps its current address.`,
    ],
    action: {
      label: 'Confirm my new email',
      url: `${publicUrl}/confirm-email?token=${encodeURIComponent(token)}`,
    },
    after: [
      `The link works for ${CHANGE_EMAIL_TTL_HOURS} hours and only once. If you did not ask for this, ignore this message: nothing changes without the link.`,
    ],
  };
}

export function emailChangeNoticeMail(
  publicUrl: string,
  to: { firstName: string },
  newEmail: string,
): MailBody {
  return {
    subject: 'Your email address is being changed',
    heading: `Hi ${to.firstName},`,
    paragraphs: [
      `Someone signed in to your StreamShop account asked to change its email address to ${newEmail}. The change happens once a link we sent to that address is opened.`,
    ],
    action: { label: 'Change my password', url: `${publicUrl}/forgot-password` },
    after: [
      'If this was you, there is nothing to do. If it was not, change your password now: whoever asked knows it.',
    ],
  };
}

export function accountDeletedMail(publicUrl: string, to: { firstName: string; handle: string }): MailBody {
  return {
    subject: 'Your StreamShop account was deleted',
    heading: `Goodbye, ${to.firstName}`,
    paragraphs: [
      `The StreamShop account @${to.handle} was deleted: its profile, products and sessions are gone, and nobody can sign in to it.`,
      'Orders and payments stay on record without your name or address, because the other party and the tax rules need them.',
    ],
    action: { label: 'Visit StreamShop', url: publicUrl },
  };
}
