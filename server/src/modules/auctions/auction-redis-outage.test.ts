import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { bid, liveRoomWith, saveCard, startAuction } from '../../test/auctions.ts';
import { eventually } from '../../test/eventually.ts';
import { freePort } from '../../test/ports.ts';
import { killRedis, redisInstalled, startRedis } from '../../test/private-redis.ts';
import { buildTestApp, createTestDatabase, signUpFrom, type TestApp } from '../../test/test-app.ts';

/**
 * Issue 28: auctions do not depend on Redis (ADR 0022). Two instances share a database and a
 * redis-server of this test's own, which is killed before the auction starts: bids on both
 * instances are still taken in one order (the rate limits count in memory meanwhile), the auction
 * closes by the database's clock and its winner is charged once.
 */
if (!redisInstalled) console.warn('redis-server is not installed: the auction Redis outage test is skipped');

describe.skipIf(!redisInstalled)('auctions while Redis is away', () => {
  let redis: ChildProcess | undefined;
  let database: Database;
  const instances: TestApp[] = [];

  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    database = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      instances.push(
        await buildTestApp(
          { redisUrl: `redis://127.0.0.1:${port}`, sessionSecret: 'b'.repeat(64) },
          { database, autoEnd: false, viewerSampling: false, auctionSweepMs: 200 },
        ),
      );
    }
  });

  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await database?.close();
    await killRedis(redis);
  });

  it('takes bids on both instances, closes and charges once', async () => {
    const [a, b] = instances as [TestApp, TestApp];
    const seller = await signUpFrom(a.app, '10.30');
    const [ann, bob] = [await signUpFrom(a.app, '10.30'), await signUpFrom(b.app, '10.30')];
    await saveCard(a.app, ann.cookie);
    await saveCard(b.app, bob.cookie);
    const { room, productId } = await liveRoomWith(a, seller.cookie);
    await killRedis(redis);

    const auction = await startAuction(a.app, seller.cookie, room, {
      productId,
      startingBidCents: 1000,
      durationSec: 5,
      suddenDeath: true,
    });
    expect((await bid(a.app, ann.cookie, auction.id, { maxBidCents: 3000 })).statusCode).toBe(201);
    expect((await bid(b.app, bob.cookie, auction.id, { amountCents: 1100 })).json().code).toBe('OUTBID');
    expect((await bid(b.app, bob.cookie, auction.id, { maxBidCents: 5000 })).statusCode).toBe(201);

    const done = await eventually(
      'the auction settled without Redis',
      async () => (await b.app.inject({ url: `/api/auctions/${auction.id}` })).json(),
      (view) => view.result?.payment === 'paid',
      20_000,
    );
    expect(done.result).toMatchObject({ winner: { handle: bob.handle }, priceCents: 3100 });
    const orders = await database.pool.query(
      'select o.id from orders o join auctions x on x.payment_id = o.payment_id where x.id = $1',
      [auction.id],
    );
    expect(orders.rows).toHaveLength(1);
  });
});
