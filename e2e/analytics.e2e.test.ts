import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually } from '../server/src/test/support.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { SIGNED_OUT_PROBE } from './browser.ts';
import { CARD, payWithCard } from './cards.ts';
import { DEMO_SHOP_ENV, SCREENSHOTS, useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';

/**
 * A stream's analytics on the dashboard: the demo seller of the seeded replay (free) sees its totals
 * and an upgrade prompt, upgrades with 4242 from there, and then sees the charts and tables.
 */

const e2e = useE2e({ env: DEMO_SHOP_ENV, page: { bypassCSP: true } });
const { newPage } = e2e;

const DEMO_SELLER = { handle: 'juno_beats', password: 'demo-password' };
const DEMO_REPLAY = { room: 'demo-vinyl-night', title: 'Vinyl night' };

async function expectNoSeriousA11yProblems(page: Page) {
  const problems = seriousViolations(await scanWithAxe(page));
  expect(problems, problems.join('\n')).toEqual([]);
}

async function signIn(page: Page) {
  await page.goto('/signin');
  await page.getByTestId('signin-handle').fill(DEMO_SELLER.handle);
  await page.getByTestId('signin-password').fill(DEMO_SELLER.password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL(/\/dashboard$/);
}

/** Opens the Streams tab and the analytics of the demo replay. */
async function openReplayAnalytics(page: Page): Promise<Locator> {
  await page.getByRole('tab', { name: 'Streams' }).click();
  const row = page.getByTestId('dashboard-stream').filter({ hasText: DEMO_REPLAY.title });
  await row.getByTestId('stream-analytics-open').click();
  const dialog = page.getByRole('dialog', { name: 'Analytics' });
  await dialog.waitFor();
  return dialog;
}

async function viewCount(): Promise<number> {
  const response = await fetch(e2e.url(`/api/streams/${DEMO_REPLAY.room}`));
  return ((await response.json()) as { viewCount: number }).viewCount;
}

describe('stream analytics', { timeout: 120_000 }, () => {
  it('shows a free seller the totals and an upgrade prompt, and a Pro seller the charts and tables', async () => {
    // Someone opens the replay's room first: one unique viewer (counted when the room's socket
    // joins, whether or not the video has started).
    const viewsBefore = await viewCount();
    const viewer = await newPage();
    await viewer.page.goto(`/room/${DEMO_REPLAY.room}`);
    await eventually('the view counted', async () => (await viewCount()) > viewsBefore, {
      timeoutMs: 30_000,
      intervalMs: 200,
    });

    const watched = await newPage();
    const { page } = watched;
    await signIn(page);

    let dialog = await openReplayAnalytics(page);
    await dialog.getByTestId('analytics-upgrade').waitFor();
    await dialog.getByTestId('stream-stats').waitFor();
    expect(await dialog.getByTestId('viewers-chart').count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}analytics-free.png` });
    await expectNoSeriousA11yProblems(page);

    await dialog.getByRole('link', { name: 'Upgrade to Pro' }).click();
    await page.waitForURL(/\/subscribe$/);
    await page.getByTestId('card-number').waitFor();
    await payWithCard(page, CARD.success);
    await expectToast(page, 'Welcome to Pro!');
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('plan-summary').waitFor();

    dialog = await openReplayAnalytics(page);
    const figures = dialog.getByTestId('analytics-figures');
    await figures.waitFor();
    expect(await figures.textContent()).toMatch(/Unique viewers[1-9]\d*Buyers0Conversion0%/);
    await dialog.getByTestId('viewers-chart').locator('svg.recharts-surface').first().waitFor();
    const chat = dialog.getByTestId('chat-chart');
    await chat.locator('svg.recharts-surface').first().waitFor();
    // The table behind the chart: the replay's eight lines were all written in its first minute.
    await chat.getByText('Show as a table').click();
    expect(await chat.getByRole('table').getByRole('row').allTextContents()).toEqual([
      'MinuteMessages',
      '0:008',
    ]);
    const products = dialog.getByTestId('analytics-products');
    expect(await products.getByRole('row').count()).toBe(4);
    expect(await products.getByRole('row').nth(1).textContent()).toMatch(/0:100\$0\.00$/);
    await page.screenshot({ path: `${SCREENSHOTS}analytics-pro.png` });
    await expectNoSeriousA11yProblems(page);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENSHOTS}analytics-pro-phone.png` });
    watched.expectNoErrors([SIGNED_OUT_PROBE]);
  });
});
