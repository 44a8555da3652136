import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type EncoderProcess, ffmpegInstalled, startEncoder } from '../../../test/encoder-process.ts';
import { eventually } from '../../../test/eventually.ts';
import { type ClusterInstance, type MediaCluster, startMediaCluster } from '../../../test/media-cluster.ts';
import { probeMedia } from '../../../test/media-probe.ts';
import { type SellerClient, segmentsIn, signUpSeller, streamView } from '../../../test/seller-client.ts';

/**
 * Issue 18, "Replays that don't depend on luck" (ADR 0018): two real server processes on one
 * PostgreSQL database, one Redis and one S3 bucket, ffmpeg publishing over RTMP as OBS would, and
 * the instance holding the publisher killed with SIGKILL mid-stream. Every ended stream gets one
 * replay that ffprobe reads to its end, whoever ended it and whichever instance was alive.
 *
 * Needs PostgreSQL (two processes cannot share the embedded PGlite): it runs in the server-postgres
 * project, with TEST_DATABASE_URL, and Redis at TEST_REDIS_URL (or 127.0.0.1:6379).
 */

const databaseServerUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
if (!ffmpegInstalled) console.warn('ffmpeg/ffprobe are not installed: the replay failover tests are skipped');

/** The grace a publisher has to come back (PUBLISHER_GRACE_SEC; the servers run with the default). */
const GRACE_SEC = 30;

/** A server that does not answer yet (killed, or still starting) counts as "not yet". */
const until = <T>(check: () => Promise<T>, what: string, ms: number) =>
  eventually(what, check, { timeoutMs: ms, intervalMs: 250, retryOnError: true });

/** A socket of a room's viewer (`/ws/media` for the video, `/ws` for the room's chat and events). */
function viewerSocket(instance: ClusterInstance, path: string) {
  const socket = new WebSocket(`${instance.url.replace('http:', 'ws:')}${path}`);
  const types: string[] = [];
  socket.on('message', (data, isBinary) => {
    if (!isBinary) types.push((JSON.parse(data.toString()) as { type: string }).type);
  });
  socket.on('error', () => {});
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, types, opened };
}

describe.skipIf(!ffmpegInstalled || !databaseServerUrl)('replays through a crash (real processes)', () => {
  let cluster: MediaCluster;
  let a: ClusterInstance;
  let b: ClusterInstance;
  let seller: SellerClient;
  const encoders = new Set<EncoderProcess>();

  beforeAll(async () => {
    cluster = await startMediaCluster({
      databaseServerUrl: databaseServerUrl ?? '',
      redisUrl,
      label: 'failover',
    });
    a = await cluster.start('A'); // migrates the database
    b = await cluster.start('B');
    seller = await signUpSeller(a.url);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...encoders].map((encoder) => encoder.kill()));
    await cluster?.close();
  }, 60_000);

  /** Instance A, started again when a test before killed it. */
  async function instanceA(): Promise<ClusterInstance> {
    if (a.server.proc.exitCode !== null || a.server.proc.signalCode !== null) a = await cluster.start('A');
    return a;
  }

  function publish(instance: ClusterInstance, streamKey: string): EncoderProcess {
    const encoder = startEncoder(`rtmp://127.0.0.1:${instance.rtmpPort}/live/${streamKey}`, 600);
    encoders.add(encoder);
    void encoder.exited.then(() => encoders.delete(encoder));
    return encoder;
  }

  /** A new stream published from an encoder to `instance`, live with a few seconds stored. */
  async function liveStreamOn(instance: ClusterInstance) {
    const room = await seller.newStream(instance.url);
    const streamKey = await seller.streamKey(instance.url, room);
    const encoder = publish(instance, streamKey);
    await until(async () => (await streamView(b.url, room)).isActive, 'the stream to go live', 30_000);
    await until(async () => (await segmentsIn(b.url, room)) >= 4, 'four stored segments', 45_000);
    return { room, streamKey, encoder };
  }

  /** The stream's recorded parts, in order, with the instance that wrote each. */
  function partsOf(room: string) {
    return cluster.query<{ id: string; instance_id: string; closed: boolean }>(
      `select p.id, p.instance_id, p.closed_at is not null as closed from stream_parts p
       join streams s on s.id = p.stream_id where s.room_name = $1 order by p.started_at, p.id`,
      [room],
    );
  }

  /**
   * A part's seconds as stored (its own playlist, served like any of the stream's files): whole
   * once closed; while open (a killed instance's), its sealed chunks and its tail.
   */
  async function partSeconds(room: string, partId: string): Promise<number> {
    const file = async (name: string) => (await fetch(`${b.url}/media/hls/${room}/${name}`)).text();
    const tail = await file(`part-${partId}.m3u8`);
    let text = tail;
    const chunks = Number(/#EXT-X-STREAMSHOP-CHUNKS:(\d+)/.exec(tail)?.[1] ?? 0);
    for (let k = 0; k < chunks; k++) text += await file(`part-${partId}-c${k}.m3u8`);
    return [...text.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  }

  /**
   * The stream's one replay, made by one instance, once (one 'replay ready' in all the instances'
   * logs, killed ones included), closed, and read to its end by ffprobe: H.264 and AAC, as long as
   * its parts together, with about 30 video frames in every second of it.
   */
  async function expectOneReplay(room: string, partCount: number) {
    const vodUrl = await until(async () => (await streamView(b.url, room)).vodUrl, 'the replay', 60_000);
    expect(vodUrl).toBe(`/media/hls/${room}/index.m3u8`);
    const [row] = await cluster.query<{ replay_state: string }>(
      'select replay_state from streams where room_name = $1',
      [room],
    );
    expect(row?.replay_state).toBe('ready');
    const text = await (await fetch(`${b.url}${vodUrl}`)).text();
    expect(text).toContain('#EXT-X-ENDLIST');
    expect(text.match(/#EXT-X-MAP/g)).toHaveLength(partCount);
    const parts = await partsOf(room);
    expect(parts).toHaveLength(partCount);
    let expected = 0;
    for (const part of parts) expected += await partSeconds(room, part.id);
    const probe = await probeMedia(`${b.url}${vodUrl}`);
    expect(probe.codecs).toEqual(['aac', 'h264']);
    expect(Math.abs(probe.duration - expected)).toBeLessThan(0.2);
    expect(probe.videoPackets).toBeGreaterThan(probe.duration * 30 * 0.85);
    expect(probe.videoPackets).toBeLessThan(probe.duration * 30 * 1.15);
    // Both instances were asked (the end, the sweep); one made it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const made = cluster.logLines().filter((line) => line.includes('"replay ready"') && line.includes(room));
    expect(made).toHaveLength(1);
    return { probe, parts };
  }

  it('tells every viewer on both instances when the seller ends the stream, and makes one replay', {
    timeout: 120_000,
  }, async () => {
    const onA = await instanceA();
    const { room, encoder } = await liveStreamOn(onA);
    const viewers = [onA, b].flatMap((instance) => [
      viewerSocket(instance, `/ws/media?room=${room}`),
      viewerSocket(instance, `/ws?room=${room}`),
    ]);
    await Promise.all(viewers.map((viewer) => viewer.opened));
    // The end goes to B; the publisher is on A.
    await seller.end(b.url, room);
    await until(
      async () => viewers.every((viewer) => viewer.types.includes('stream_ended')),
      'stream_ended on every viewer socket of both instances',
      15_000,
    );
    for (const viewer of viewers) viewer.socket.close();
    // A dropped the encoder at the end.
    await until(async () => encoder.child.exitCode !== null, 'the encoder to be dropped', 15_000);
    const { parts } = await expectOneReplay(room, 1);
    expect(parts[0]?.closed).toBe(true);
  });

  it('ends a stream whose instance was killed and whose publisher never came back, after the grace, with its replay', {
    timeout: 120_000,
  }, async () => {
    const onA = await instanceA();
    const { room, encoder } = await liveStreamOn(onA);
    await onA.kill();
    await encoder.exited;
    // B's auto-end sees the publisher's lease lapse, and ends the stream after the grace.
    await until(async () => !(await streamView(b.url, room)).isActive, 'the end', 75_000);
    const [ended] = await cluster.query<{ gone_for: number; at_limit: boolean }>(
      `select extract(epoch from ended_at - publisher_seen_at)::float8 as gone_for,
        ended_at = ends_at as at_limit from streams where room_name = $1`,
      [room],
    );
    // Counted from the publisher's last sign of life, which its killed instance never released.
    expect(ended?.gone_for).toBeGreaterThanOrEqual(GRACE_SEC);
    expect(ended?.at_limit).toBe(false);
    expect(cluster.logLines().some((line) => line.includes('publisher is gone') && line.includes(room))).toBe(
      true,
    );
    const { parts } = await expectOneReplay(room, 1);
    // The killed instance's part, never closed: its stored segments are the replay.
    expect(parts[0]?.closed).toBe(false);
  });

  it('keeps the stream live when the publisher comes back on the other instance, and joins both parts in one replay', {
    timeout: 120_000,
  }, async () => {
    const onA = await instanceA();
    const { room, streamKey, encoder } = await liveStreamOn(onA);
    await onA.kill();
    await encoder.exited;
    // The encoder reconnects, through the load balancer, to B.
    publish(b, streamKey);
    await until(
      async () => {
        const parts = await partsOf(room);
        const second = parts[1];
        return parts.length === 2 && second && (await partSeconds(room, second.id)) >= 4;
      },
      'four seconds of a second part, on B',
      45_000,
    );
    expect((await streamView(b.url, room)).isActive).toBe(true);
    await seller.end(b.url, room);
    const { parts } = await expectOneReplay(room, 2);
    expect(new Set(parts.map((part) => part.instance_id)).size).toBe(2);
    for (const part of parts) expect(await partSeconds(room, part.id)).toBeGreaterThanOrEqual(3);
  });

  it('makes the replay of a stream the plan’s limit ended after its publishing instance was killed', {
    timeout: 120_000,
  }, async () => {
    const onA = await instanceA();
    const { room, encoder } = await liveStreamOn(onA);
    await onA.kill();
    await encoder.exited;
    // The plan's limit comes before the grace is over.
    await cluster.query(`update streams set ends_at = now() + interval '2 seconds' where room_name = $1`, [
      room,
    ]);
    await until(async () => !(await streamView(b.url, room)).isActive, 'the end at the limit', 20_000);
    const [ended] = await cluster.query<{ at_limit: boolean }>(
      'select ended_at = ends_at as at_limit from streams where room_name = $1',
      [room],
    );
    expect(ended?.at_limit).toBe(true);
    expect(cluster.logLines().some((line) => line.includes('plan limit') && line.includes(room))).toBe(true);
    await expectOneReplay(room, 1);
  });
});
