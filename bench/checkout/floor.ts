/** The checkout bench's floor: one burst of GETs in the same shape as the checkouts it is compared with. */
import { type Client, countBy, runPool, sleep } from '../support.ts';

/**
 * `count` GETs of `path`, `concurrency` at a time: latencies, statuses and the rate. With
 * `spreadMs`, GET i waits until i × spreadMs / count after the start (the arrivals of a run whose
 * buyers come one after the other rather than all at once).
 */
export async function getBurst(api: Client, path: string, count: number, concurrency: number, spreadMs = 0) {
  const t0 = performance.now();
  const replies = await runPool(count, concurrency, async (i) => {
    if (spreadMs > 0) await sleep(t0 + (i * spreadMs) / count - performance.now());
    return api.request('GET', path);
  });
  const durationSec = (performance.now() - t0) / 1000;
  return {
    samples: replies.map((r) => r.ms),
    statuses: countBy(replies.map((r) => r.status)),
    ok: replies.filter((r) => r.status === 200).length,
    durationSec,
    perSec: count / durationSec,
  };
}

export type Floor = Awaited<ReturnType<typeof getBurst>>;
