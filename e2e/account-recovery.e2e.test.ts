import { afterAll, describe, expect, it } from 'vitest';
import { linkIn, startTestSmtpServer, type TestSmtpServer } from '../server/src/test/support.ts';
import { fillSignUpForm, newAccount } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { SIGNED_OUT_PROBE } from './browser.ts';
import { SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';

/**
 * The mailed links in the browser: the server sends through a real SMTP server started here, the
 * spec reads each message's link and opens it as the person would.
 */

let smtp: TestSmtpServer | undefined;
const e2e = useE2e({
  env: async () => {
    smtp = await startTestSmtpServer();
    return { SMTP_URL: smtp.url, MAIL_FROM: 'StreamShop <hello@shop.test>' };
  },
  page: { bypassCSP: true },
});
const { newPage } = e2e;
afterAll(async () => {
  await smtp?.stop();
});

const mailbox = () => {
  if (!smtp) throw new Error('the test SMTP server has not started');
  return smtp;
};
/** The path and query of the link in the newest message to `to` with `subject`. */
async function linkFrom(to: string, subject: string, pathname: string): Promise<string> {
  const mail = await mailbox().waitFor((m) => m.to === to && m.subject === subject, 20_000);
  const link = linkIn(mail, pathname);
  return `${link.pathname}${link.search}`;
}

describe('account recovery by email', { timeout: 120_000 }, () => {
  it('asks a new seller to confirm the address, and the mailed link confirms it', async () => {
    const watched = await newPage();
    const { page } = watched;
    const account = newAccount('verify');
    await fillSignUpForm(page, account);
    await page.getByTestId('signup-submit').click();
    await page.waitForURL(/\/dashboard$/);
    const banner = page.getByTestId('verify-email-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain(account.email);
    await page.screenshot({ path: `${SCREENSHOTS}verify-banner.png` });

    await page.goto(await linkFrom(account.email, 'Confirm your email address', '/verify-email'));
    await page.getByTestId('email-verified').waitFor();
    expect(await page.getByTestId('email-verified').textContent()).toContain(account.email);
    await page.screenshot({ path: `${SCREENSHOTS}verify-email.png` });
    await page.getByRole('link', { name: 'Go to your dashboard' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('dashboard-greeting').waitFor();
    expect(await page.getByTestId('verify-email-banner').count()).toBe(0);

    // The same link again says why it no longer works.
    await page.goto(await linkFrom(account.email, 'Confirm your email address', '/verify-email'));
    expect(await page.getByTestId('verify-error').textContent()).toContain('already used');
    watched.expectNoErrors([SIGNED_OUT_PROBE, { status: 400, path: '/api/auth/verify-email' }]);
  });

  it('resets a forgotten password from /signin: the old one stops working and other devices are signed out', async () => {
    const account = newAccount('reset');
    const elsewhere = await newPage();
    await fillSignUpForm(elsewhere.page, account);
    await elsewhere.page.getByTestId('signup-submit').click();
    await elsewhere.page.waitForURL(/\/dashboard$/);

    const watched = await newPage();
    const { page } = watched;
    await page.goto('/signin');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await page.getByTestId('forgot-email').fill(account.email);
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('reset-requested').waitFor();
    const problems = seriousViolations(await scanWithAxe(page));
    expect(problems, problems.join('\n')).toEqual([]);

    await page.goto(await linkFrom(account.email, 'Choose a new password', '/reset-password'));
    await page.getByTestId('reset-password').fill('a brand new passphrase');
    await page.getByTestId('reset-password-confirm').fill('a brand new passphrase');
    await page.screenshot({ path: `${SCREENSHOTS}reset-password.png` });
    await page.getByTestId('reset-submit').click();
    await expectToast(page, 'Password changed');
    await page.waitForURL(/\/dashboard$/);
    await mailbox().waitFor((m) => m.to === account.email && m.subject === 'Your password was changed');

    // The other device is signed out: the dashboard sends it home, and the old password fails.
    await elsewhere.page.goto('/dashboard');
    await elsewhere.page.waitForURL((url) => url.pathname === '/');
    await elsewhere.page.goto('/signin');
    await elsewhere.page.getByTestId('signin-handle').fill(account.handle);
    await elsewhere.page.getByTestId('signin-password').fill(account.password);
    await elsewhere.page.getByTestId('signin-submit').click();
    await expectToast(elsewhere.page, 'Sign In Failed');
    await elsewhere.page.getByTestId('signin-password').fill('a brand new passphrase');
    await elsewhere.page.getByTestId('signin-submit').click();
    await elsewhere.page.waitForURL(/\/dashboard$/);
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
