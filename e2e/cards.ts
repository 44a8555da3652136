import type { Page } from 'playwright-core';

/** Test cards of the local payment provider. */
export const CARD = {
  success: '4242424242424242',
  declined: '4000000000000002',
  authentication: '4000002500003155',
};

/** A date that stays in the future: December, three years ahead, typed as MMYY. */
const futureExpiry = () => `12${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;

/** Types the card as a buyer would (digits only; the form adds the spaces) and submits it. */
export async function payWithCard(page: Page, number: string) {
  const numberField = page.getByTestId('card-number');
  await numberField.fill('');
  await numberField.pressSequentially(number);
  const expiry = page.getByTestId('card-expiry');
  await expiry.fill('');
  await expiry.pressSequentially(futureExpiry());
  await page.getByTestId('card-cvc').fill('123');
  await page.getByTestId('payment-submit').click();
}
