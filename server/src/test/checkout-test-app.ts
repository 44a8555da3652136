import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildTestApp, signUp, type TestApp, unlimited } from './test-app.ts';

export type Account = Awaited<ReturnType<typeof signUp>>;

/**
 * A checkout test file's app (no background jobs, no rate limits, streams never end by
 * themselves) and its one seller, built once; and a fresh buyer before each test, since an account
 * may hold only MAX_HOLDS_PER_ACCOUNT units at once. Closed after the file.
 */
export function useCheckoutTestApp(
  started: (app: TestApp, seller: Account) => void,
  nextBuyer: (buyer: Account) => void,
): void {
  let running: TestApp | undefined;
  beforeAll(async () => {
    running = await buildTestApp({}, { autoEnd: false, paymentJobs: false, rateLimiter: unlimited });
    started(running, await signUp(running.app));
  });
  beforeEach(async () => {
    if (running) nextBuyer(await signUp(running.app));
  });
  afterAll(async () => {
    await running?.close();
  });
}
