import { afterAll, beforeAll, beforeEach } from 'vitest';
import { buildTestApp, signUp, type TestApp, unlimited } from './test-app.ts';

export type Account = Awaited<ReturnType<typeof signUp>>;

/** What a checkout test has: the app, its one seller, and this test's buyer. */
export interface CheckoutTestState {
  t: TestApp;
  seller: Account;
  buyer: Account;
}

/**
 * A checkout test file's app (no background jobs, no rate limits, streams never end by
 * themselves) and its one seller, built once; and a fresh buyer before each test, since an account
 * may hold only MAX_HOLDS_PER_ACCOUNT units at once. `each` gets them before every test. Closed
 * after the file.
 */
export function useCheckoutTestApp(each: (state: CheckoutTestState) => void): void {
  let running: { t: TestApp; seller: Account } | undefined;
  beforeAll(async () => {
    const t = await buildTestApp({}, { autoEnd: false, paymentJobs: false, rateLimiter: unlimited });
    running = { t, seller: await signUp(t.app) };
  });
  beforeEach(async () => {
    if (running) each({ ...running, buyer: await signUp(running.t.app) });
  });
  afterAll(async () => {
    await running?.t.close();
  });
}
