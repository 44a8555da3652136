/**
 * WebSocket fan-out of one live stream (issue 30, item 3): what N viewers of /ws/media cost the
 * server, against a bare `ws` server sending the same bytes in the same messages, and what one
 * slow viewer costs the others.
 *
 * The real server (server/src/main.ts) runs in a child process on a fresh PGlite DATA_DIR with RTMP
 * ingest; a seller signed up through the API creates a stream and ffmpeg publishes to it as OBS
 * would (bench/fanout/stream.ts: H.264 + AAC, a keyframe every second, the free plan's 1.5 Mbit/s
 * or --video-kbps); the server copies the video and sends it to its WebSocket viewers as fragmented
 * MP4, a fragment per packet.
 * The viewers are raw WebSocket clients (bench/fanout/wire.ts: the upgrade, then frames walked
 * header by header) spread over child processes of their own (--groups, 2), so their CPU is not
 * the server's; one more, the reference viewer, reads at full speed in the bench's process.
 *
 *   floor      the reference viewer records --record seconds (6) of what the server sends it,
 *              whole groups keyframe to keyframe; a bare `ws` server in its own child process
 *              (bench/fanout/floor.ts) plays the recording in a loop, each fragment to every
 *              socket as the same Buffer at its recorded offset (the relay's own way), after the
 *              media_reset text and the init segment each connection gets
 *   counts     for each of --viewers (0, 100, 300, 1000): N viewers join the app's /ws/media, then
 *              the same N the floor's (each with its reference viewer); after --warmup (3 s), a
 *              window of --seconds (10): the server's CPU from /proc/<pid>/stat (utime + stime of
 *              all its threads; the app's ffmpeg pipeline apart), each viewer's bytes and binary
 *              messages, the gaps between its messages (1 ms histogram) and the jumps forward in
 *              its fragments' numbers (mfhd: the server skipped it ahead); a viewer is at full
 *              rate when it got ≥ 90 % of the reference viewer's bytes in the window. The encoder
 *              runs throughout, so both targets share the machine with the same ffmpeg work
 *   slow       --slow-normal (100) viewers on the app, a window; then one slow viewer joins whose
 *              socket is read at most --slow-kbps (256 kbit/s, about a seventh of the stream; the
 *              socket is paused between reads, so the kernel's buffers fill and the server sees a
 *              slow network) for --slow-fill s (40), the window again in its last --seconds: the
 *              others' rates, gaps and skips with and without it, the server's CPU and RSS growth,
 *              and where the slow viewer stands: bytes and fragments received, how far behind the
 *              others it is (arrival here − arrival at the reference of the same fragment), what
 *              the kernel holds for its connection (ss: the server's Send-Q, its Recv-Q). Then its
 *              network recovers (reading unthrottled) until it is live again (< 0.5 s behind, 20 s
 *              at most): the stale bytes it still had to read, the skips it then sees (the
 *              reference viewer's parser says whether each resumed at a keyframe) and how long
 *              until it is live
 *
 *   npm run bench -- fanout [--viewers=0,100,300,1000] [--seconds=10] [--warmup=3] [--record=6]
 *     [--video-kbps=1500] [--groups=2] [--slow-kbps=256] [--slow-normal=100] [--slow-fill=40]
 *     [--max-seconds=290]
 *
 * (Use the `=` form: run-all treats bare words as benchmark names.) About 4 minutes with the
 * defaults; it stops by itself after --max-seconds (exit code 3). Needs ffmpeg and `ss`.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { type FloorServer, startFloor } from './fanout/floor.ts';
import { parseOptions } from './fanout/options.ts';
import { fanoutPhase, type SlowRun, slowPhase, type Target } from './fanout/phases.ts';
import { recordingRate, writeRecording } from './fanout/recording.ts';
import { connectReference, type Reference } from './fanout/reference.ts';
import { type CountRun, reportFanout } from './fanout/report.ts';
import { goLive, type LiveStream } from './fanout/stream.ts';
import { ViewerGroup } from './fanout/viewers.ts';
import { type AppServer, finishRun, fixed, runBench, type Storage, startHardCap } from './support.ts';

const stopAll = new AbortController();

async function main(): Promise<boolean> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const servers: AppServer[] = [];
  let storage: Storage | undefined;
  const clearHardCap = startHardCap('fanout', options.maxSeconds, stopAll, () => ({ servers, storage }));
  const loadBefore = loadavg();
  console.log(
    `fanout: ${options.viewers.join(', ')} viewers, windows of ${options.seconds} s; ` +
      `${availableParallelism()} CPUs, load ${loadBefore.map((n) => fixed(n)).join(' ')}`,
  );
  if ((loadBefore[0] ?? 0) > availableParallelism())
    console.warn('!! other work is running: the figures will be slower than on a quiet machine');
  const temp = mkdtempSync(path.join(tmpdir(), 'ss-fanout-'));
  const groups = Array.from({ length: options.groups }, () => ViewerGroup.start());
  const references: Reference[] = [];
  let live: LiveStream | undefined;
  let floor: FloorServer | undefined;
  try {
    live = await goLive(stopAll.signal, options.videoKbps, (server, st) => {
      servers.push(server);
      storage = st;
    });
    console.log(`  live in /room/${live.roomName}; recording ${options.record} s for the floor`);
    const appReference = await connectReference(live.mediaUrl);
    references.push(appReference);
    const recording = await appReference.record(options.record);
    const file = path.join(temp, 'recording.bin');
    writeRecording(file, recording);
    console.log(
      `  recorded ${recording.fragments.length} fragments over ${fixed(recording.loopMs / 1000)} s ` +
        `(${fixed((recordingRate(recording) * 8) / 1e6, 2)} Mbit/s)`,
    );
    floor = await startFloor(file);
    const floorReference = await connectReference(floor.url);
    references.push(floorReference);
    const app: Target = { label: 'app', url: live.mediaUrl, pid: live.server.pid, reference: appReference };
    const bare: Target = { label: 'floor', url: floor.url, pid: floor.pid, reference: floorReference };

    const runs: CountRun[] = [];
    for (const count of options.viewers) {
      stopAll.signal.throwIfAborted();
      const appRun = await fanoutPhase(app, groups, count, options);
      const floorRun = await fanoutPhase(bare, groups, count, options);
      runs.push({ count, app: appRun, floor: floorRun });
    }
    let slow: SlowRun | undefined;
    if (options.slowNormal > 0) slow = await slowPhase(app, groups, options);
    return reportFanout(runs, slow, options, {
      cpus: availableParallelism(),
      loadAverage: { before: loadBefore, after: loadavg() },
      recording: {
        fragments: recording.fragments.length,
        loopMs: recording.loopMs,
        mbps: (recordingRate(recording) * 8) / 1e6,
      },
    });
  } finally {
    clearHardCap();
    for (const r of references) r.client.close();
    await Promise.all(groups.map((g) => g.stop()));
    await floor?.stop();
    await live?.end().catch((error) => console.error(`ending the stream: ${error}`));
    for (const s of servers.splice(0)) await s.stop();
    rmSync(temp, { recursive: true, force: true });
    await finishRun('fanout', started, storage);
  }
}

await runBench('fanout', stopAll, main);
