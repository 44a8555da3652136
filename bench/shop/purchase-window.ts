/** The purchase window (measured), and the servers' RSS sampled around it. */
import {
  type AppServer,
  type Client,
  countBy,
  cpuSeconds,
  fixed,
  rssMb,
  runQueueWaitSeconds,
  sleep,
  sum,
  waitFor,
  wallMs,
  warnFailedPurchases,
} from '../support.ts';
import type { Options } from './options.ts';
import { purchase } from './purchase.ts';
import type { Setup } from './setup.ts';
import type { Watch } from './watch.ts';

/** Each server's RSS now, and its peak, sampled every 250 ms until stop(). */
export function sampleRss(servers: AppServer[]) {
  const idleMb = servers.map((s) => rssMb(s.pid));
  const peakMb = [...idleMb];
  const sampler = setInterval(() => {
    servers.forEach((s, i) => {
      peakMb[i] = Math.max(peakMb[i] ?? 0, rssMb(s.pid) || 0);
    });
  }, 250);
  return { idleMb, peakMb, stop: () => clearInterval(sampler) };
}

/**
 * The purchases (measured): buyer i starts at i × window / buyers; the window ends when every
 * viewer has the final stock and every purchase line. Server and client CPU over the window.
 */
export async function runPurchases(
  options: Options,
  { instances, apis, buyers, productId, roomName }: Setup,
  servers: AppServer[],
  w: Watch,
  rss: Rss,
  signal: AbortSignal,
) {
  const framesBefore = w.frames;
  const cpuBefore = servers.map((s) => cpuSeconds(s.pid));
  const waitBefore = servers.map((s) => runQueueWaitSeconds(s.pid));
  const selfWaitBefore = runQueueWaitSeconds(process.pid);
  const selfBefore = process.cpuUsage();
  const windowStart = wallMs();
  const t0 = performance.now();
  const spacing = (options.windowSec * 1000) / options.buyers;
  const purchases = await Promise.all(
    buyers.map(async (buyer, i) => {
      await sleep(Math.max(0, t0 + i * spacing - performance.now()));
      signal.throwIfAborted();
      return purchase(apis[i % instances] as Client, buyer, i, productId, roomName);
    }),
  );
  const lastAnswer = wallMs();
  const confirmed = purchases.filter((p) => p.confirmedAt !== undefined);
  const expectedFinal = options.stock - confirmed.length;
  // Every viewer has the final stock, and every purchase line (10 s bound after the last answer).
  const minStockOf = (v: number) => {
    for (let s = 0; s < w.levels; s++) if (!Number.isNaN(w.stockFirst[v * w.levels + s] ?? 0)) return s;
    return w.levels;
  };
  const linesExpected = confirmed.length * options.viewers;
  const linesCount = () => {
    let n = 0;
    for (const p of confirmed)
      for (let v = 0; v < options.viewers; v++)
        if (!Number.isNaN(w.lineFirst[v * w.buyers + p.buyer] ?? 0)) n += 1;
    return n;
  };
  const drained = await waitFor(
    () => {
      for (let v = 0; v < options.viewers; v++) if (minStockOf(v) > expectedFinal) return false;
      return linesCount() >= linesExpected;
    },
    10_000,
    50,
  );
  const windowEnd = wallMs();
  const windowSec = (windowEnd - windowStart) / 1000;
  const serverCpuPct = servers.map((s, i) => ((cpuSeconds(s.pid) - (cpuBefore[i] ?? 0)) / windowSec) * 100);
  const serverWaitPct = servers.map(
    (s, i) => ((runQueueWaitSeconds(s.pid) - (waitBefore[i] ?? 0)) / windowSec) * 100,
  );
  const clientsWaitPct = ((runQueueWaitSeconds(process.pid) - selfWaitBefore) / windowSec) * 100;
  const selfCpu = process.cpuUsage(selfBefore);
  const clientsCpuPct = ((selfCpu.user + selfCpu.system) / 1e6 / windowSec) * 100;
  const framesInWindow = w.frames - framesBefore;
  const serverCpuMs = (sum(serverCpuPct) / 100) * windowSec * 1000;
  if (!drained) console.warn('  !! not every viewer had the final stock and every purchase line within 10 s');
  // Late repeats and stale events, if any, still arrive.
  await sleep(1000);
  rss.stop();

  const statuses = countBy(purchases.map((p) => p.checkout.status));
  const checkoutOther = purchases.filter((p) => p.checkout.status !== 200 && p.checkout.status !== 409);
  const confirmOther = purchases.filter((p) => p.clientSecret && p.confirmedAt === undefined);
  console.log(
    `  purchases: checkout ${JSON.stringify(statuses)}, ${confirmed.length} paid, last answer ` +
      `${fixed((lastAnswer - windowStart) / 1000, 2)} s into the window`,
  );
  warnFailedPurchases([...checkoutOther, ...confirmOther]);
  return {
    purchases,
    confirmed,
    statuses,
    checkoutOther,
    confirmOther,
    windowStart,
    windowSec,
    serverCpuPct,
    serverWaitPct,
    clientsWaitPct,
    clientsCpuPct,
    framesInWindow,
    serverCpuMs,
  };
}

export type PurchaseWindow = Awaited<ReturnType<typeof runPurchases>>;
export type Rss = ReturnType<typeof sampleRss>;
