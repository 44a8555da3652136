/**
 * Ends and replays through a crash (issue 18, ADR 0018): how long until a stream ends, and until
 * its replay is ready, when the seller ends it, when the instance holding its publisher is killed
 * (SIGKILL) and the publisher never returns, when it returns to the other instance, and when the
 * plan's limit ends it after the kill.
 *
 * Two real server processes (server/src/main.ts, their defaults: a 30 s grace, a 5 s heartbeat and
 * sweep) on a fresh database of a PostgreSQL server, one Redis and one S3 bucket (s3rver on
 * 127.0.0.1): the cluster of the fault test (server/src/test/media-cluster.ts). ffmpeg publishes
 * over RTMP like OBS (640×360 H.264 + AAC in real time). Each scenario starts a new stream on A,
 * waits for 4 stored segments, then:
 *
 *   seller-end   viewers on both instances (a video and a room socket each); End Stream sent to B:
 *                request → stream_ended on the last of the 4 sockets; → vodUrl set (polled every
 *                100 ms)
 *   gone         A killed; nobody publishes: kill → the stream ends (isActive false, polled); end →
 *                vodUrl; the database's ended_at − publisher_seen_at (the grace as counted)
 *   returns      A killed; the encoder starts again on B after --gap seconds and publishes 6 s;
 *                End Stream on B: end → vodUrl (waits for A's part to go stale: 15 s after the kill)
 *   limit        A killed; ends_at moved to 2 s from now: kill → end; end → vodUrl
 *
 * after each the replay is read to its end by ffprobe (its length against its parts'). A is started
 * again after each kill (not measured).
 *
 *   npm run bench -- failover [--runs=N] [--gap=S] [--only=seller-end,gone,returns,limit]
 *                             [--database-url=postgres://…] [--redis=redis://…] [--max-seconds=S]
 *
 * (Use the `=` form.) The database defaults to TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test,
 * Redis to TEST_REDIS_URL or redis://127.0.0.1:6379. One run of all four takes about 4 minutes; it
 * stops by itself after --max-seconds (default 900, exit code 3). Prints the table and writes
 * bench/results/failover.json. Needs Debian's ffmpeg.
 */
import { loadavg } from 'node:os';
import WebSocket from 'ws';
import {
  type ClusterInstance,
  type EncoderProcess,
  eventually,
  type MediaCluster,
  probeMedia,
  type SellerClient,
  segmentsIn,
  signUpSeller,
  startEncoder,
  startMediaCluster,
  streamView,
} from '../server/src/test/support.ts';
import { percentile, type Row, report } from './report.ts';
import { cliFlags, sleep } from './support.ts';

const SCENARIOS = ['seller-end', 'gone', 'returns', 'limit'] as const;
type Scenario = (typeof SCENARIOS)[number];

const flags = cliFlags(process.argv.slice(2));
const runs = flags.number('runs', 1, 1, 20);
const gapSec = flags.number('gap', 3, 0, 25);
const maxSeconds = flags.number('max-seconds', 900, 60, 7200);
const only = (flags.value('only')?.split(',') ?? [...SCENARIOS]) as Scenario[];
for (const name of only) if (!SCENARIOS.includes(name)) throw new Error(`unknown scenario ${name}`);
const databaseServerUrl =
  flags.value('database-url') ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = flags.value('redis') ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Measured times, in seconds, per figure. */
const figures = new Map<string, number[]>();
const record = (name: string, seconds: number) => figures.set(name, [...(figures.get(name) ?? []), seconds]);
/** Replay length − its parts' length (s), and frames per second of replay. */
const checks: Array<{ scenario: Scenario; parts: number; seconds: number; offBy: number; fps: number }> = [];

const encoders = new Set<EncoderProcess>();
let cluster: MediaCluster | undefined;

/** Polling for `eventually`: every 100 ms for at most `ms`; a failing request (a server still starting or gone) is "not yet". */
const patiently = (ms: number) => ({ timeoutMs: ms, intervalMs: 100, retryOnError: true });

function main(): Promise<void> {
  const hardCap = setTimeout(() => {
    console.error(`failover: the hard cap of ${maxSeconds} s is reached; stopping`);
    void Promise.allSettled([...encoders].map((encoder) => encoder.kill()))
      .then(() => cluster?.close())
      .finally(() => process.exit(3));
  }, maxSeconds * 1000);
  hardCap.unref();
  return run().finally(() => clearTimeout(hardCap));
}

async function run(): Promise<void> {
  const started = performance.now();
  cluster = await startMediaCluster({ databaseServerUrl, redisUrl, label: 'bench_failover' });
  const live = cluster;
  let a = await live.start('A');
  const b = await live.start('B');
  const seller = await signUpSeller(a.url);
  const ctx = { cluster: live, b, seller };
  try {
    for (let i = 0; i < runs; i++) {
      for (const scenario of only) {
        if (a.server.proc.exitCode !== null || a.server.proc.signalCode !== null) a = await live.start('A');
        console.log(`failover: run ${i + 1}/${runs}, ${scenario}`);
        await SCENARIO[scenario](ctx, a);
      }
    }
  } finally {
    await Promise.allSettled([...encoders].map((encoder) => encoder.kill()));
    await live.close();
  }
  const rows: Row[] = [];
  for (const [name, values] of figures) {
    rows.push({
      metric: name,
      value: percentile(values, 50),
      unit: 's',
      note: values.length > 1 ? `max ${Math.max(...values).toFixed(2)} s of ${values.length}` : '',
    });
  }
  for (const check of checks) {
    rows.push({
      metric: `${check.scenario}: replay length − its parts' (${check.parts} part${check.parts > 1 ? 's' : ''})`,
      value: check.offBy,
      unit: 's',
      note: `${check.seconds.toFixed(1)} s long, ${check.fps.toFixed(1)} video frames per second read`,
    });
  }
  report('failover', rows, {
    runs,
    gapSec,
    loadavg: loadavg(),
    seconds: Math.round((performance.now() - started) / 1000),
  });
}

interface Context {
  cluster: MediaCluster;
  b: ClusterInstance;
  seller: SellerClient;
}

function publish(instance: ClusterInstance, streamKey: string): EncoderProcess {
  const encoder = startEncoder(`rtmp://127.0.0.1:${instance.rtmpPort}/live/${streamKey}`, 600);
  encoders.add(encoder);
  void encoder.exited.then(() => encoders.delete(encoder));
  return encoder;
}

async function liveStreamOn({ b, seller }: Context, a: ClusterInstance) {
  const room = await seller.newStream(a.url, 'Failover bench');
  const streamKey = await seller.streamKey(a.url, room);
  const encoder = publish(a, streamKey);
  await eventually('live', async () => (await streamView(b.url, room)).isActive, patiently(30_000));
  await eventually(
    'four stored segments',
    async () => (await segmentsIn(b.url, room)) >= 4,
    patiently(45_000),
  );
  return { room, streamKey, encoder };
}

/** The time from `since` until the replay is ready; the replay checked with ffprobe. */
async function replayAfter(ctx: Context, scenario: Scenario, room: string, since: number): Promise<number> {
  const vodUrl = await eventually(
    'the replay',
    async () => (await streamView(ctx.b.url, room)).vodUrl,
    patiently(90_000),
  );
  const seconds = (performance.now() - since) / 1000;
  const parts = await ctx.cluster.query<{ id: string }>(
    `select p.id from stream_parts p join streams s on s.id = p.stream_id where s.room_name = $1`,
    [room],
  );
  let partSeconds = 0;
  const file = async (name: string) => (await fetch(`${ctx.b.url}/media/hls/${room}/${name}`)).text();
  for (const part of parts) {
    // A closed part's playlist is whole; an open one (a killed instance's) is sealed chunks and a tail.
    let text = await file(`part-${part.id}.m3u8`);
    const chunks = Number(/#EXT-X-STREAMSHOP-CHUNKS:(\d+)/.exec(text)?.[1] ?? 0);
    for (let k = 0; k < chunks; k++) text += await file(`part-${part.id}-c${k}.m3u8`);
    partSeconds += [...text.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  }
  const probe = await probeMedia(`${ctx.b.url}${vodUrl}`);
  checks.push({
    scenario,
    parts: parts.length,
    seconds: probe.duration,
    offBy: probe.duration - partSeconds,
    fps: probe.videoPackets / probe.duration,
  });
  return seconds;
}

async function killed(a: ClusterInstance, encoder: EncoderProcess): Promise<number> {
  await a.kill();
  const at = performance.now();
  await encoder.exited;
  return at;
}

const SCENARIO: Record<Scenario, (ctx: Context, a: ClusterInstance) => Promise<void>> = {
  async 'seller-end'(ctx, a) {
    const { room } = await liveStreamOn(ctx, a);
    const sockets = [a, ctx.b].flatMap((instance) =>
      [`/ws/media?room=${room}`, `/ws?room=${room}`].map((path) => {
        const socket = new WebSocket(`${instance.url.replace('http:', 'ws:')}${path}`);
        const seen = { ended: 0, socket };
        socket.on('error', () => {});
        socket.on('message', (data, isBinary) => {
          if (!isBinary && (JSON.parse(data.toString()) as { type: string }).type === 'stream_ended')
            seen.ended ||= performance.now();
        });
        return seen;
      }),
    );
    await eventually(
      'sockets',
      async () => sockets.every((s) => s.socket.readyState === WebSocket.OPEN),
      patiently(10_000),
    );
    const endAt = performance.now();
    await ctx.seller.end(ctx.b.url, room);
    await eventually(
      'stream_ended everywhere',
      async () => sockets.every((s) => s.ended > 0),
      patiently(15_000),
    );
    record(
      'seller-end: End Stream → stream_ended on all 4 sockets (A, B)',
      (Math.max(...sockets.map((s) => s.ended)) - endAt) / 1000,
    );
    for (const s of sockets) s.socket.close();
    record('seller-end: End Stream → replay ready', await replayAfter(ctx, 'seller-end', room, endAt));
  },

  async gone(ctx, a) {
    const { room, encoder } = await liveStreamOn(ctx, a);
    const killAt = await killed(a, encoder);
    await eventually('the end', async () => !(await streamView(ctx.b.url, room)).isActive, patiently(90_000));
    const endAt = performance.now();
    record('gone: kill → stream ended (grace 30 s)', (endAt - killAt) / 1000);
    const [row] = await ctx.cluster.query<{ gone_for: number }>(
      `select extract(epoch from ended_at - publisher_seen_at)::float8 as gone_for from streams where room_name = $1`,
      [room],
    );
    record('gone: ended_at − last heartbeat (database clock)', row?.gone_for ?? Number.NaN);
    record('gone: end → replay ready', await replayAfter(ctx, 'gone', room, endAt));
  },

  async returns(ctx, a) {
    const { room, streamKey, encoder } = await liveStreamOn(ctx, a);
    const killAt = await killed(a, encoder);
    await sleep(gapSec * 1000);
    publish(ctx.b, streamKey);
    await eventually(
      'a part on B',
      async () =>
        (
          await ctx.cluster.query(
            `select 1 from stream_parts p join streams s on s.id = p.stream_id
             where s.room_name = $1 and p.instance_id <> (select instance_id from stream_parts p2
               where p2.stream_id = s.id order by started_at limit 1)`,
            [room],
          )
        ).length > 0,
      patiently(30_000),
    );
    record(`returns: kill → B records (encoder back after ${gapSec} s)`, (performance.now() - killAt) / 1000);
    await sleep(6000);
    const endAt = performance.now();
    await ctx.seller.end(ctx.b.url, room);
    record(
      'returns: End Stream → replay ready (A’s part stale 15 s after the kill)',
      await replayAfter(ctx, 'returns', room, endAt),
    );
    record('returns: kill → replay ready', (performance.now() - killAt) / 1000);
  },

  async limit(ctx, a) {
    const { room, encoder } = await liveStreamOn(ctx, a);
    const killAt = await killed(a, encoder);
    await ctx.cluster.query(
      `update streams set ends_at = now() + interval '2 seconds' where room_name = $1`,
      [room],
    );
    await eventually(
      'the end at the limit',
      async () => !(await streamView(ctx.b.url, room)).isActive,
      patiently(30_000),
    );
    const endAt = performance.now();
    record('limit: kill → ended at the limit (set 2 s after the kill)', (endAt - killAt) / 1000);
    record(
      'limit: end → replay ready (A’s part stale 15 s after the kill)',
      await replayAfter(ctx, 'limit', room, endAt),
    );
  },
};

await main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
