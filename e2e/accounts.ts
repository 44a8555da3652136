import type { Page } from 'playwright-core';

export interface NewAccount {
  firstName: string;
  lastName: string;
  email: string;
  handle: string;
  password: string;
}

let handleCount = 0;
/** A sign-up with a handle unique to this run: `<prefix>_<time>_<n>`. */
export function newAccount(prefix: string): NewAccount {
  handleCount += 1;
  const handle = `${prefix}_${Date.now().toString(36)}_${handleCount}`;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `${handle}@example.com`,
    handle,
    password: 'correct horse battery',
  };
}

/** Fills the sign-up form at /signup (page needs a baseURL), without submitting it. */
export async function fillSignUpForm(page: Page, account: NewAccount, confirmPassword = account.password) {
  await page.goto('/signup');
  await page.getByTestId('signup-first-name').fill(account.firstName);
  await page.getByTestId('signup-last-name').fill(account.lastName);
  await page.getByTestId('signup-email').fill(account.email);
  await page.getByTestId('signup-handle').fill(account.handle);
  await page.getByTestId('signup-password').fill(account.password);
  await page.getByTestId('signup-confirm-password').fill(confirmPassword);
}

/** Signs a new account up through the form and waits for the dashboard; returns the handle. */
export async function signUpThroughForm(page: Page, prefix: string): Promise<string> {
  const account = newAccount(prefix);
  await fillSignUpForm(page, account);
  await page.getByTestId('signup-submit').click();
  await page.waitForURL(/\/dashboard$/);
  return account.handle;
}

/** Signs an existing account in through the form at /signin and waits for the dashboard. */
export async function signInThroughForm(page: Page, handle: string, password: string) {
  await page.goto('/signin');
  await page.getByTestId('signin-handle').fill(handle);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL(/\/dashboard$/);
}
