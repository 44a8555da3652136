import type { TestApp } from './test-app.ts';

/**
 * A stream's history written straight into the database (live window, viewer samples, chat, pins,
 * views, orders), for the seller's figures to be read back through the API. `testApp` is read at
 * each call, so the fixtures can be made before the app is built.
 */
export function streamFixtures(testApp: () => TestApp) {
  const query = (text: string, values: unknown[] = []) => testApp().database.pool.query(text, values);

  return {
    query,

    /** A stream of the user's; returns its room name and id. */
    async newStream(cookie: string, title = 'Stats show') {
      const response = await testApp().app.inject({
        method: 'POST',
        url: '/api/rooms',
        headers: { cookie },
        payload: { title },
      });
      const { roomName, stream } = response.json();
      return { roomName: roomName as string, id: stream.id as string };
    },

    /** Sets when the stream was live, as if it had been started and ended then. */
    async setLiveWindow(streamId: string, startedAt: string, endedAt: string | null) {
      await query(
        `update streams set started_at = $2, ended_at = $3, is_active = $3::timestamptz is null where id = $1`,
        [streamId, startedAt, endedAt],
      );
    },

    async addSamples(streamId: string, samples: Array<[at: string, viewers: number]>) {
      for (const [at, viewers] of samples) {
        await query('insert into stream_viewer_samples (stream_id, at, viewers) values ($1, $2, $3)', [
          streamId,
          at,
          viewers,
        ]);
      }
    },

    /** `count` chat lines of `kind`, written at `at` (default now). */
    async addChat(streamId: string, kind: 'user' | 'purchase', count: number, at?: string) {
      for (let i = 0; i < count; i += 1) {
        await query(
          `insert into chat_messages (stream_id, username, message, kind, created_at)
           values ($1, $2, $3, $4, coalesce($5::timestamptz, now()))`,
          [streamId, 'someone', `line ${i}`, kind, at ?? null],
        );
      }
    },

    async addOrder(
      order: { streamId: string | null; buyerId: string; sellerId: string; productId?: string },
      amountCents: number,
      duringLive: boolean,
      status: 'paid' | 'refunded' = 'paid',
    ) {
      await query(
        `insert into orders (buyer_id, seller_id, product_id, amount_cents, stream_id, during_live, status)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          order.buyerId,
          order.sellerId,
          order.productId ?? null,
          amountCents,
          order.streamId,
          duringLive,
          status,
        ],
      );
    },

    /** A pin of the product from `pinnedAt` to `unpinnedAt` (null: still pinned). */
    async addPin(streamId: string, productId: string, pinnedAt: string, unpinnedAt: string | null) {
      await query(
        'insert into stream_pins (stream_id, product_id, pinned_at, unpinned_at) values ($1, $2, $3, $4)',
        [streamId, productId, pinnedAt, unpinnedAt],
      );
    },

    /** People counted as views of the stream, one row each. */
    async addViews(streamId: string, viewerKeys: string[]) {
      for (const key of viewerKeys) {
        await query('insert into stream_views (stream_id, viewer_key) values ($1, $2)', [streamId, key]);
      }
    },
  };
}
