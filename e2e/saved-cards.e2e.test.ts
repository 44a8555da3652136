import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';

/**
 * Saved cards in /settings (issue 28), on the local provider: a buyer adds a test card with the
 * card form, sees it listed as the default, and removes it after confirming; at a laptop's and a
 * phone's width, with an axe scan of each state.
 */

const WIDTHS = [
  ['desktop', { width: 1366, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const;

const { newPage } = useE2e({ page: { bypassCSP: true } });

async function expectNoAxeProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

describe('saved cards', { timeout: 120_000 }, () => {
  it.each(WIDTHS)('adds a card in settings, lists it, then removes it (%s)', async (name, viewport) => {
    const watched = await newPage({ viewport });
    const { page } = watched;
    await signUpThroughForm(page, 'cards');
    await page.goto('/settings');
    const section = page.getByTestId('settings-cards');
    await section.getByTestId('cards-empty').waitFor();
    await section.scrollIntoViewIfNeeded();

    await section.getByTestId('card-add').click();
    await section.getByTestId('card-number').waitFor();
    await expectNoAxeProblems(page);
    await section.screenshot({ path: `${SCREENSHOTS}saved-cards-form-${name}.png` });

    // A declined card is refused in words, next to the form; the test card is saved.
    await payWithCard(page, CARD.declined);
    await expect.poll(() => section.getByRole('alert').textContent()).toContain('Your card was declined.');
    await payWithCard(page, CARD.success);
    await expectToast(page, 'Card saved');
    const row = section.getByTestId('saved-card-row');
    await row.waitFor();
    expect(await row.getByTestId('saved-card-name').textContent()).toBe('Visa ending in 4242');
    expect(await row.getByTestId('saved-card-default').textContent()).toBe('Default');
    expect(await row.getByTestId('saved-card-expiry').textContent()).toMatch(/^Expires 12\/\d\d$/);
    await expectNoAxeProblems(page);
    await section.screenshot({ path: `${SCREENSHOTS}saved-cards-list-${name}.png` });

    // Still there after a reload: it is the server's list.
    await page.reload();
    await section.getByTestId('saved-card-row').waitFor();

    await section.getByTestId('saved-card-remove').click();
    const dialog = page.getByTestId('card-remove-dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Visa ending in 4242');
    await expectNoAxeProblems(page);
    await page.screenshot({ path: `${SCREENSHOTS}saved-cards-remove-${name}.png` });
    await page.getByTestId('card-remove-confirm').click();
    await expectToast(page, 'Card removed');
    await section.getByTestId('cards-empty').waitFor();
    // The sign-up page asks who is signed in before anyone is (401).
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
