import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Waits for the toast titled `title` and, when given, checks its text contains `description`. */
export async function expectToast(
  page: Page,
  title: string,
  description?: string,
  options: { timeout?: number } = {},
) {
  const toast = page.getByTestId('toast').filter({ hasText: title });
  await toast.waitFor(options);
  if (description) expect(await toast.textContent()).toContain(description);
}

/** Resolves when the <video> has a decoded frame (readyState >= 2 and a width). */
export async function waitForVideoFrame(page: Page, testId: string, timeout: number) {
  await page.waitForFunction(
    (id) => {
      const video = document.querySelector<HTMLVideoElement>(`[data-testid="${id}"]`);
      return !!video && video.readyState >= 2 && video.videoWidth > 0;
    },
    testId,
    { timeout },
  );
}

/** The element's box lies wholly inside the window (not cut off, not scrolled away). */
export async function expectInViewport(page: Page, locator: Locator, what: string) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${what} is not shown`);
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('the page has no viewport size');
  const inside =
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= viewport.width + 0.5 &&
    box.y + box.height <= viewport.height + 0.5;
  expect(inside, `${what} at ${JSON.stringify(box)} in ${viewport.width}x${viewport.height}`).toBe(true);
}
