import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH } from '../../modules/checkout/routes.ts';
import { eventually } from '../../test/eventually.ts';
import { buildTestApp, type TestApp } from '../../test/test-app.ts';
import { LEASE_SEC } from '../leases.ts';
import type { LocalProvider } from './local.ts';

/**
 * Issue 18: the local provider's webhook outbox claims events for a short lease renewed while they
 * are delivered. Two instances share one database: `first` delivers by hand (its job is off),
 * `second` runs the payment jobs every second, as another instance behind the proxy would.
 */

let first: TestApp;
let second: TestApp;
const firstProvider = () => first.app.payments as LocalProvider;

beforeAll(async () => {
  first = await buildTestApp({}, { autoEnd: false, paymentJobs: false, localWebhooks: false });
  second = await buildTestApp(
    { sessionSecret: first.config.sessionSecret },
    { autoEnd: false, database: first.database },
  );
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

let counter = 0;
/** An event the order logic records and ignores, written 10 s ago (past the fresh window). */
async function leftBehindEvent(columns: { attempts?: number; leaseSec?: number } = {}) {
  counter += 1;
  const id = `evt_local_lease_${process.pid}_${counter}`;
  const payload = JSON.stringify({
    id,
    createdAt: new Date().toISOString(),
    type: 'ignored',
    providerType: 'x',
  });
  await first.database.pool.query(
    `insert into local_webhook_events (id, payload, attempts, next_attempt_at, created_at)
     values ($1, $2, $3, now() + make_interval(secs => $4), now() - interval '10 seconds')`,
    [id, payload, columns.attempts ?? 0, columns.leaseSec ?? 0],
  );
  return id;
}

async function eventRow(id: string): Promise<{ attempts: number; delivered_at: Date | null }> {
  const result = await first.database.pool.query(
    'select attempts, delivered_at from local_webhook_events where id = $1',
    [id],
  );
  return result.rows[0];
}

/** How many times the order logic received the event (it records each event id once). */
async function recorded(id: string): Promise<number> {
  const result = await first.database.pool.query(
    'select count(*)::int as n from payment_events where event_id = $1',
    [id],
  );
  return result.rows[0].n;
}

describe('the webhook outbox’s short leases', () => {
  it('lets another instance take over an event whose deliverer died, once its short lease lapses', async () => {
    // Claimed (attempt 1) by a deliverer that died at once: its lease is never renewed.
    const id = await leftBehindEvent({ attempts: 1, leaseSec: LEASE_SEC });
    await eventually(
      'delivered by the second instance',
      async () => (await eventRow(id)).delivered_at !== null,
      {
        timeoutMs: (LEASE_SEC + 10) * 1000,
        intervalMs: 100,
      },
    );
    expect(await eventRow(id)).toMatchObject({ attempts: 2 });
    expect(await recorded(id)).toBe(1);
  }, 30_000);

  it('keeps a slow delivery claimed past its lease: the other instance does not send it again', async () => {
    const id = await leftBehindEvent();
    let sentByFirst = 0;
    // The endpoint answers only after longer than a lease lasts; the deliverer renews it meanwhile.
    firstProvider().attachWebhook(async (payload, headers) => {
      sentByFirst += 1;
      await new Promise((resolve) => setTimeout(resolve, (LEASE_SEC + 3) * 1000));
      const response = await first.app.inject({ method: 'POST', url: WEBHOOK_PATH, headers, payload });
      return response.statusCode;
    });
    try {
      expect(await firstProvider().deliverDue([id])).toBe(1);
    } finally {
      firstProvider().attachWebhook(undefined);
    }
    expect(sentByFirst).toBe(1);
    // Claimed once: the second instance's job (every second) never took it over.
    expect(await eventRow(id)).toMatchObject({ attempts: 1 });
    expect((await eventRow(id)).delivered_at).not.toBeNull();
    expect(await recorded(id)).toBe(1);
  }, 30_000);
});
