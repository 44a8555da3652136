import type { Locator, Page } from 'playwright-core';

/** An address a buyer types at checkout. */
export const ADDRESS = {
  name: 'Ada Buyer',
  line1: '1 Record Lane',
  city: 'Bristol',
  postalCode: 'BS1 4DJ',
  country: 'GB',
};

/** Types the address into the checkout's form (page or sheet) and sends it. */
export async function enterShippingAddress(scope: Page | Locator, address = ADDRESS) {
  const form = scope.getByTestId('address-form');
  await form.getByLabel('Full name').fill(address.name);
  await form.getByLabel('Address', { exact: true }).fill(address.line1);
  await form.getByLabel('City').fill(address.city);
  await form.getByLabel('Postal code').fill(address.postalCode);
  await form.getByLabel('Country').selectOption(address.country);
  await form.getByTestId('address-submit').click();
}

/**
 * Until the card form shows: a buyer with no saved address types one first; one with a saved
 * address has it chosen already. Products that ship (the demo's) ask for one; others do not.
 */
export async function shipToAnAddressIfAsked(scope: Page | Locator) {
  const asked = scope.getByTestId('address-form').or(scope.getByTestId('card-number'));
  await asked.first().waitFor();
  if (await scope.getByTestId('address-form').isVisible()) await enterShippingAddress(scope);
  await scope.getByTestId('card-number').waitFor();
}
