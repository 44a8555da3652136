/**
 * Chat fan-out under load (issue 5, "Performance: benchmarks, not tests").
 *
 * N viewers (2,000 by default) in one room on 127.0.0.1; senders post M messages per second
 * (20 by default) for S seconds (15) after a short warm-up. Every message carries its sequence
 * number and its send time (performance.timeOrigin + performance.now(), ms); every viewer records
 * receive time − send time for every message, and which messages it got, so the run reports exact
 * delivery-latency percentiles over every delivery, deliveries per second and the deliveries lost
 * (expected = messages × viewers).
 *
 * Each server runs in its own child process, so it shares neither a thread nor a process with the
 * clients, and its CPU (all its threads: the embedded database's worker included) and RSS are read
 * from /proc. The clients (viewers and senders) run in this process. Scenarios, one after the other:
 *
 *   floor (string)  a plain `ws` server of the same fan-out and wire format: JSON.stringify once per
 *                   message, the same string sent to every socket (what the app's RoomHub does)
 *   floor (Buffer)  the same, but the frame payload UTF-8 encoded once into a Buffer
 *   single PGlite   the app, one instance, in-memory bus, embedded PGlite (the default deployment)
 *   single PG       the app, one instance, in-memory bus, PostgreSQL (isolates the database change)
 *   busy PG         the same while the database is busy: a concurrent write load on it
 *                   (bench/chat/write-load.ts: --write-load=C connections committing --write-rows=R
 *                   rows of 2 kB each, 4 × 200 by default), as the issue 18 finding saw it
 *   2× Redis        two app instances on one PostgreSQL database, fan-out through Redis pub/sub
 *                   (a fresh key prefix per run); half the viewers on each, the senders on A
 *
 * --before=<git ref> also runs the PostgreSQL scenarios (single-pg, busy-pg) with the server of
 * that commit (bench/chat/before.ts), each just before this checkout's: before/after in one run.
 *
 * The figures include the clients' own cost: 2,000 sockets in one client thread parse every frame
 * one after the other. The floor rows show that cost, and the app's overhead over plain `ws`.
 *
 *   npm run bench -- chat [--viewers=N] [--rate=M] [--seconds=S] [--warmup=S] [--only=floor,single,busy,redis]
 *     [--write-load=C] [--write-rows=R] [--before=<git ref>]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) TEST_DATABASE_URL names the
 * PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test: a fresh database per scenario,
 * dropped at the end) and TEST_REDIS_URL the Redis server (default redis://127.0.0.1:6379); a
 * scenario whose server is unreachable is skipped and says so.
 */
import { availableParallelism, loadavg } from 'node:os';
import { checkoutAt } from './chat/before.ts';
import { closeAll, connect, connectAll, type Measure, newClients, sendMessages } from './chat/clients.ts';
import { type Options, parseOptions } from './chat/options.ts';
import { judgeAndReport } from './chat/report.ts';
import {
  postgresScenarios,
  type Scenario,
  type ScenarioResult,
  scenarios,
  withBefore,
} from './chat/scenarios.ts';
import type { ServerHandle } from './chat/server.ts';
import type { WriteLoadFigures } from './chat/write-load.ts';
import { percentile } from './report.ts';
import { cpuSeconds, fixed, rssMb, sleep, sum, waitFor, wallMs } from './support.ts';

async function runScenario(scenario: Scenario, options: Options): Promise<ScenarioResult> {
  // Each sender sends at most rate / senders ≤ 2/3 message per second: under the per-user limit
  // (a burst of 3, then 1 per second) with room for timer jitter; and at least 20 accounts.
  const senderCount = Math.max(20, Math.ceil(options.rate * 1.5));
  const { servers, cleanup, load } = await scenario.start(senderCount);
  let writeLoad: WriteLoadFigures | undefined;
  const clients = newClients();
  try {
    const first = servers[0];
    if (!first) throw new Error('no server');
    const room = first.ready.room ?? 'chat-bench';
    const cookies = first.ready.cookies ?? [];
    const wsUrl = (server: ServerHandle) => `${server.url}/ws?room=${encodeURIComponent(room)}`;
    const serverRssIdleMb = servers.map((s) => rssMb(s.pid));

    clients.senders = await connectAll(senderCount, 20, (i) =>
      connect(clients, wsUrl(first), -1, cookies[i]),
    );

    // --- the viewers join (anonymous), spread evenly over the instances --------------------------
    clients.viewerInstance = Array.from({ length: options.viewers }, (_, i) => i % servers.length);
    const t0 = performance.now();
    clients.viewers = await connectAll(options.viewers, 64, (i) => {
      const server = servers[clients.viewerInstance[i] ?? 0] ?? first;
      return connect(clients, wsUrl(server), i);
    });
    const connectSec = (performance.now() - t0) / 1000;
    // Every join broadcasts a viewer count to the room: wait until that traffic has died down.
    const t1 = performance.now();
    await waitFor(() => performance.now() - clients.lastViewerCountAt > 1000, 60_000, 50);
    const settleSec = (performance.now() - t1) / 1000;
    const viewerCountFramesOnConnect = clients.viewerCountFrames;
    console.log(
      `  ${options.viewers} viewers in ${connectSec.toFixed(1)} s ` +
        `(${viewerCountFramesOnConnect.toLocaleString('en')} viewer_count frames; settled in ${settleSec.toFixed(1)} s)`,
    );

    const newMeasure = (tag: string, total: number): Measure => ({
      tag,
      total,
      seen: new Uint8Array(options.viewers * total),
      samples: servers.map(() => []),
      acceptLag: new Float64Array(total).fill(Number.NaN),
      delivered: 0,
      duplicates: 0,
      lastReceiveAt: 0,
    });
    const drain = async (measure: Measure) =>
      waitFor(() => measure.delivered >= measure.total * options.viewers, 10_000);

    // --- warm-up -----------------------------------------------------------------------------------
    const warmupTotal = Math.round(options.warmupSec * options.rate);
    if (warmupTotal > 0) {
      const warm = newMeasure('w', warmupTotal);
      clients.measure = warm;
      await sendMessages(clients.senders, warm.tag, warmupTotal, options.rate);
      await drain(warm);
      // Let the senders' rate-limit buckets refill before the measured run.
      await sleep(1500);
    }

    // --- measured run --------------------------------------------------------------------------------
    const total = Math.max(1, Math.round(options.seconds * options.rate));
    const measure = newMeasure('m', total);
    clients.measure = measure;
    const errorsBefore = { ...clients.errors };
    const closesBefore = clients.unexpectedCloses;
    const rssPeak = servers.map((s) => rssMb(s.pid));
    const sampler = setInterval(() => {
      servers.forEach((s, i) => {
        rssPeak[i] = Math.max(rssPeak[i] ?? 0, rssMb(s.pid));
      });
    }, 250);
    const cpuBefore = servers.map((s) => cpuSeconds(s.pid));
    const selfBefore = process.cpuUsage();
    const startedAt = wallMs();
    load?.mark();
    await sendMessages(clients.senders, measure.tag, total, options.rate);
    const drained = await drain(measure);
    const endedAt = wallMs();
    writeLoad = await load?.stop();
    clearInterval(sampler);
    const elapsedSec = (endedAt - startedAt) / 1000;
    const serverCpuPct = servers.map(
      (s, i) => ((cpuSeconds(s.pid) - (cpuBefore[i] ?? 0)) / elapsedSec) * 100,
    );
    const selfCpu = process.cpuUsage(selfBefore);
    const loadGeneratorCpuPct = ((selfCpu.user + selfCpu.system) / 1e6 / elapsedSec) * 100;
    if (!drained) console.warn(`  !! not every delivery arrived within 10 s of the last send`);

    const errors: Record<string, number> = {};
    for (const [code, n] of Object.entries(clients.errors)) {
      const delta = n - (errorsBefore[code] ?? 0);
      if (delta) errors[code] = delta;
    }
    // One sorted array of every delivery: percentile() sorts again, which is cheap on sorted input.
    const all = measure.samples.flat().sort((a, b) => a - b);
    const expected = total * options.viewers;
    const accept = [...measure.acceptLag].filter((x) => !Number.isNaN(x));
    const measuredSec = ((measure.lastReceiveAt || endedAt) - startedAt) / 1000;
    return {
      key: scenario.key,
      label: scenario.label,
      instances: servers.length,
      viewers: options.viewers,
      senders: senderCount,
      messages: total,
      expected,
      delivered: measure.delivered,
      lost: expected - measure.delivered,
      duplicates: measure.duplicates,
      p50: percentile(all, 50),
      p95: percentile(all, 95),
      p99: percentile(all, 99),
      max: all[all.length - 1] ?? Number.NaN,
      p95ByInstance: measure.samples.map((s) => percentile(s, 95)),
      acceptP50: percentile(accept, 50),
      acceptP95: percentile(accept, 95),
      deliveriesPerSec: measure.delivered / measuredSec,
      measuredSec,
      serverCpuPct,
      serverCpuMsPer1k: ((sum(serverCpuPct) / 100) * elapsedSec * 1000) / (measure.delivered / 1000),
      serverRssPeakMb: rssPeak,
      serverRssIdleMb,
      loadGeneratorCpuPct,
      connectSec,
      settleSec,
      viewerCountFramesOnConnect,
      errors,
      unexpectedCloses: clients.unexpectedCloses - closesBefore,
      ...(first.ready.setupMs === undefined ? {} : { setupMs: first.ready.setupMs }),
      ...(writeLoad ? { writeLoad } : {}),
    };
  } finally {
    await load?.stop();
    await closeAll(clients);
    await cleanup();
  }
}

/** Runs each scenario (--only picks some) in turn; one whose server cannot start is skipped and says why. */
async function runScenarios(options: Options) {
  const results: ScenarioResult[] = [];
  const skipped: Record<string, string> = {};
  const checkout = options.before ? checkoutAt(options.before) : undefined;
  if (checkout) console.log(`before: the server at ${checkout.commit} (${checkout.root})`);
  const before = checkout ? { source: checkout.root, commit: checkout.commit } : undefined;
  const list = withBefore(scenarios(options), before ? postgresScenarios(options, before) : []);
  try {
    await runEach(list, options, results, skipped);
  } finally {
    checkout?.remove();
  }
  return { results, skipped };
}

async function runEach(
  list: Scenario[],
  options: Options,
  results: ScenarioResult[],
  skipped: Record<string, string>,
) {
  for (const scenario of list) {
    if (
      options.only.length &&
      !options.only.some((o) => scenario.key === o || scenario.key.startsWith(`${o}-`))
    )
      continue;
    console.log(`\n${scenario.label}`);
    try {
      const result = await runScenario(scenario, options);
      results.push(result);
      console.log(
        `  p50 ${fixed(result.p50)} ms, p95 ${fixed(result.p95)} ms, p99 ${fixed(result.p99)} ms, ` +
          `max ${fixed(result.max)} ms; ${Math.round(result.deliveriesPerSec).toLocaleString('en')} deliveries/s; ` +
          `lost ${result.lost}; server CPU ${result.serverCpuPct.map((c) => `${fixed(c, 0)}%`).join(' + ')}; ` +
          `clients CPU ${fixed(result.loadGeneratorCpuPct, 0)}%` +
          (Object.keys(result.errors).length ? `; errors ${JSON.stringify(result.errors)}` : '') +
          (result.writeLoad
            ? `; write load ${result.writeLoad.commits} commits, ${fixed(result.writeLoad.mbPerSec, 0)} MB/s, ` +
              `commit p50 ${fixed(result.writeLoad.commitP50)} / p95 ${fixed(result.writeLoad.commitP95)} ms`
            : ''),
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      skipped[scenario.key] = message;
      console.warn(`  !! skipped: ${message}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  console.log(
    `chat: ${options.viewers} viewers in one room, ${options.rate} messages/s for ${options.seconds} s ` +
      `(+${options.warmupSec} s warm-up), ${availableParallelism()} CPUs`,
  );
  const loadAverageBefore = loadavg();
  if ((loadAverageBefore[0] ?? 0) > availableParallelism())
    console.warn(
      `!! load average ${loadAverageBefore.map((n) => n.toFixed(1)).join(' ')} on ${availableParallelism()} CPUs: ` +
        'other work is running, the figures will be slower than on a quiet machine',
    );

  const { results, skipped } = await runScenarios(options);
  judgeAndReport(options, results, skipped, loadAverageBefore);
  console.log(`chat: done in ${fixed((performance.now() - started) / 1000)} s`);
  if (results.some((r) => r.lost > 0)) process.exitCode = 1;
}

await main();
