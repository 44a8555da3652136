import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUpThroughForm } from './accounts.ts';
import { scanWithAxe, seriousViolations } from './axe.ts';
import { type ExpectedFailure, SIGNED_OUT_PROBE, type WatchedPage } from './browser.ts';
import { useE2e } from './e2e-setup.ts';
import { expectToast } from './page-checks.ts';

const e2e = useE2e({ camera: true, page: { bypassCSP: true } });
const { newPage } = e2e;

async function sendChat(page: Page, text: string) {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
}

const signedOut: ExpectedFailure[] = [SIGNED_OUT_PROBE];

describe('chat moderation', { timeout: 90_000 }, () => {
  let seller: WatchedPage;
  let moderator: WatchedPage;
  let viewer: WatchedPage;
  let moderatorHandle = '';
  let viewerHandle = '';
  let roomPath = '';

  it('lets the seller turn on slow mode and appoint a moderator from the dashboard', async () => {
    moderator = await newPage({}, { keep: true });
    moderatorHandle = await signUpThroughForm(moderator.page, 'mod');

    seller = await newPage({}, { keep: true });
    const { page } = seller;
    await signUpThroughForm(page, 'host');
    await page.getByRole('tab', { name: 'Streams' }).click();
    await page.getByTestId('chat-settings-open').click();
    const dialog = page.getByTestId('chat-settings-dialog');
    await dialog.getByRole('heading', { name: 'Chat settings' }).waitFor();
    await dialog.getByTestId('moderators-empty').waitFor();

    await dialog.getByTestId('slow-mode-select').click();
    await page.getByRole('option', { name: '10 s' }).click();
    await dialog.getByTestId('blocked-words-input').fill('Scam, DM me');
    await dialog.getByTestId('chat-settings-save').click();
    await expectToast(page, 'Chat settings saved');
    expect(await dialog.getByTestId('blocked-words-input').inputValue()).toBe('scam\ndm me');

    await dialog.getByTestId('moderator-handle-input').fill('nobody_here_at_all');
    await dialog.getByTestId('moderator-add').click();
    await dialog.getByText('No user has this handle').waitFor();
    await dialog.getByTestId('moderator-handle-input').fill(`@${moderatorHandle}`);
    await dialog.getByTestId('moderator-add').click();
    await dialog
      .getByTestId('moderator-item')
      .filter({ hasText: `@${moderatorHandle}` })
      .waitFor();
    // The add button is enabled again (a disabled one is drawn at half contrast).
    await dialog.locator('[data-testid="moderator-add"]:not([disabled])').waitFor();
    expect(seriousViolations(await scanWithAxe(page))).toEqual([]);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto('/golive');
    await page.getByLabel('Stream title').fill('Moderated night');
    await page.getByTestId('golive-submit').click();
    await page.waitForURL(/\/room\/moderated-night-[0-9a-f]{8}$/);
    roomPath = new URL(page.url()).pathname;
    await page.getByTestId('chat-input').waitFor();
    seller.expectNoErrors(signedOut.concat({ status: 400, path: '/api/moderators' }));
  });

  it('shows a viewer’s second quick message the slow-mode error and keeps it in the input', async () => {
    viewer = await newPage({}, { keep: true });
    const { page } = viewer;
    viewerHandle = await signUpThroughForm(page, 'fan');
    await page.goto(roomPath);
    await sendChat(page, 'Hello from the front row');
    await page.getByTestId('chat-message-text').filter({ hasText: 'Hello from the front row' }).waitFor();

    await sendChat(page, 'Me again, so soon');
    const error = page.getByTestId('chat-error');
    await error
      .filter({ hasText: /Slow mode is on: wait (9|10) seconds before your next message/ })
      .waitFor();
    expect(await page.getByTestId('chat-input').inputValue()).toBe('Me again, so soon');
    await seller.page
      .getByTestId('chat-message-text')
      .filter({ hasText: 'Hello from the front row' })
      .waitFor();
    expect(await seller.page.getByTestId('chat-message-text').allTextContents()).not.toContain(
      'Me again, so soon',
    );
    viewer.expectNoErrors(signedOut);
  });

  it('lets the moderator time the viewer out from the message menu; the viewer is told until when', async () => {
    const { page } = moderator;
    await page.goto(roomPath);
    const line = page.getByTestId('chat-message').filter({ hasText: 'Hello from the front row' });
    await line.getByRole('button', { name: `Message actions for @${viewerHandle}` }).click();
    await page.getByRole('menuitem', { name: `Ban @${viewerHandle}` }).waitFor();
    await page.getByRole('menuitem', { name: `Time out @${viewerHandle} for 5 min` }).click();

    // The time-out reaches the server on the moderator's socket; the viewer's next try meets it.
    const muted = viewer.page
      .getByTestId('chat-error')
      .filter({ hasText: 'You are timed out of this chat until' });
    const deadline = Date.now() + 10_000;
    while (!(await muted.isVisible())) {
      if (Date.now() > deadline) throw new Error('the viewer was never told of the time-out');
      await viewer.page.getByTestId('chat-send').click();
      await muted.waitFor({ timeout: 1500 }).catch(() => {});
    }
    expect(await muted.textContent()).toMatch(/until \d\d:\d\d:\d\d UTC \(5 min from now\)/);
    moderator.expectNoErrors(signedOut);
    viewer.expectNoErrors(signedOut);
  });
});
