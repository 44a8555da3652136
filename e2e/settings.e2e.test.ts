import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { linkIn, startTestSmtpServer, type TestSmtpServer } from '../server/src/test/support.ts';
import { fillSignUpForm, type NewAccount, newAccount } from './accounts.ts';
import { SIGNED_OUT_PROBE } from './browser.ts';
import { SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';

/**
 * The settings page in the browser: profile, password, a new address confirmed through the link
 * the real SMTP server received, signing out the other devices, and deleting the account.
 */

let smtp: TestSmtpServer | undefined;
const e2e = useE2e({
  env: async () => {
    smtp = await startTestSmtpServer();
    return { SMTP_URL: smtp.url, MAIL_FROM: 'StreamShop <hello@shop.test>' };
  },
});
const { newPage, url } = e2e;
afterAll(async () => {
  await smtp?.stop();
});

/** A 1x1 PNG for the picture field. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const mailbox = () => {
  if (!smtp) throw new Error('the test SMTP server has not started');
  return smtp;
};

async function signUp(page: Page, account: NewAccount) {
  await fillSignUpForm(page, account);
  await page.getByTestId('signup-submit').click();
  await page.waitForURL(/\/dashboard$/);
}

/** Signs in through the form; answers whether the dashboard opened. */
async function signIn(page: Page, handle: string, password: string): Promise<boolean> {
  await page.goto('/signin');
  await page.getByTestId('signin-handle').fill(handle);
  await page.getByTestId('signin-password').fill(password);
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/auth/signin'));
  await page.getByTestId('signin-submit').click();
  return (await answer).ok();
}

describe('settings', { timeout: 120_000 }, () => {
  it('changes the profile, the password and the address, signs out elsewhere, then deletes the account', async () => {
    const account = newAccount('settings');
    const watched = await newPage();
    const { page } = watched;
    await signUp(page, account);

    // From the dashboard's header.
    await page.getByTestId('settings-link').click();
    await page.waitForURL(/\/settings$/);
    await page.getByTestId('settings-profile').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}settings-desktop.png`, fullPage: true });

    // Profile: an empty name is refused in the browser, a real one is saved.
    await page.getByTestId('profile-first-name').fill('');
    await page.getByTestId('profile-save').click();
    expect(await page.getByTestId('settings-profile').textContent()).toContain('First name is required');
    await page.getByTestId('profile-first-name').fill('Grace');
    await page.getByTestId('profile-business-name').fill('Hopper Records');
    await page.getByTestId('profile-save').click();
    await expectToast(page, 'Profile saved');
    await page.reload();
    await page.getByTestId('profile-first-name').waitFor();
    expect(await page.getByTestId('profile-first-name').inputValue()).toBe('Grace');
    expect(await page.getByTestId('settings-avatar-initials').textContent()).toBe('GL');

    // Picture: a file that is not an image is refused in the browser; a PNG is uploaded and kept.
    await page.getByTestId('avatar-file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    await expectToast(page, 'Upload Failed');
    await page
      .getByTestId('avatar-file')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: TINY_PNG });
    await expectToast(page, 'Picture updated');
    await page.reload();
    expect(await page.getByTestId('settings-avatar').getAttribute('src')).toMatch(
      /^\/media\/uploads\/.+\.webp$/,
    );

    // A second browser of the same account.
    const phone = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    expect(await signIn(phone.page, account.handle, account.password)).toBe(true);
    await phone.page.waitForURL(/\/dashboard$/);

    // Password: a wrong current one is named on its field; the right one changes it.
    const newPassword = 'a much better passphrase';
    await page.getByTestId('password-current').fill('not my password');
    await page.getByTestId('password-new').fill(newPassword);
    await page.getByTestId('password-confirm').fill(newPassword);
    await page.getByTestId('password-save').click();
    await page.getByText('This is not your current password').waitFor();
    await page.getByTestId('password-current').fill(account.password);
    await page.getByTestId('password-save').click();
    await expectToast(page, 'Password changed', '1 other device was signed out.');

    // The phone was signed out; the old password no longer works there, the new one does.
    await phone.page.goto('/dashboard');
    await phone.page.waitForURL(url('/'));
    expect(await signIn(phone.page, account.handle, account.password)).toBe(false);
    expect(await signIn(phone.page, account.handle, newPassword)).toBe(true);
    await phone.page.waitForURL(/\/dashboard$/);
    await mailbox().waitFor(
      (m) => m.to === account.email && m.subject === 'Your password was changed',
      20_000,
    );

    // Email: a link goes to the new address; the address changes when it is opened.
    const newEmail = `moved_${account.handle}@example.com`;
    await page.getByTestId('email-new').fill(newEmail);
    await page.getByTestId('email-password').fill(newPassword);
    await page.getByTestId('email-save').click();
    await page.getByTestId('email-change-sent').waitFor();
    expect(await page.getByTestId('settings-current-email').textContent()).toBe(account.email);
    await mailbox().waitFor(
      (m) => m.to === account.email && m.subject === 'Your email address is being changed',
      20_000,
    );
    const mail = await mailbox().waitFor(
      (m) => m.to === newEmail && m.subject === 'Confirm your new email address',
      20_000,
    );
    const link = linkIn(mail, '/confirm-email');
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByTestId('email-changed').waitFor();
    expect(await page.getByTestId('email-changed').textContent()).toContain(newEmail);
    await page.screenshot({ path: `${SCREENSHOTS}confirm-email.png` });
    await page.getByRole('link', { name: 'Back to settings' }).click();
    await page.waitForURL(/\/settings$/);
    await page.getByTestId('settings-current-email').waitFor();
    expect(await page.getByTestId('settings-current-email').textContent()).toBe(newEmail);

    // Sessions: this device and the phone; sign out everywhere else.
    const rows = page.getByTestId('session-row');
    await page.getByTestId('sessions-list').waitFor();
    expect(await rows.count()).toBe(2);
    expect(await page.getByTestId('session-current').count()).toBe(1);
    await page.getByTestId('settings-sessions').screenshot({ path: `${SCREENSHOTS}settings-sessions.png` });
    await page.getByTestId('sign-out-others').click();
    await expectToast(page, 'Signed out everywhere else', '1 session ended.');
    await page.getByTestId('sessions-only-this').waitFor();
    await phone.page.goto('/settings');
    await phone.page.waitForURL(url('/'));

    // The phone signs in again and looks at the page at phone width.
    expect(await signIn(phone.page, account.handle, newPassword)).toBe(true);
    await phone.page.waitForURL(/\/dashboard$/);
    await phone.page.getByTestId('drawer-toggle').click();
    await phone.page.getByTestId('drawer-settings').click();
    await phone.page.waitForURL(/\/settings$/);
    await phone.page.getByTestId('sessions-list').waitFor();
    await phone.page.screenshot({ path: `${SCREENSHOTS}settings-phone.png`, fullPage: true });
    await phone.close();

    // Delete: a wrong password is refused in the dialog; the right one deletes the account.
    await page.getByTestId('delete-account').click();
    await page.getByTestId('delete-account-dialog').waitFor();
    await page.getByTestId('delete-confirmation').fill('not my password');
    await page.getByTestId('delete-confirm').click();
    await page.getByTestId('delete-account-dialog').getByText('This is not your current password').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}settings-delete-dialog.png` });
    await page.getByTestId('delete-confirmation').fill(newPassword);
    await page.getByTestId('delete-confirm').click();
    await page.waitForURL(url('/'));
    await expectToast(page, 'Account deleted');

    expect(await signIn(page, account.handle, newPassword)).toBe(false);
    const storefront = await page.request.get(url(`/api/storefront/${account.handle}`));
    expect(storefront.status()).toBe(404);

    watched.expectNoErrors([
      SIGNED_OUT_PROBE,
      { status: 400, path: '/api/account/password' },
      { status: 400, path: '/api/account/delete' },
      { status: 401, path: '/api/auth/signin' },
    ]);
  });
});
