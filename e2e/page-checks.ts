import type { Page } from 'playwright-core';
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
