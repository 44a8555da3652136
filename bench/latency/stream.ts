/**
 * One measured stream: a seller goes live with the given ingest (the browser's H.264 or VP8, or
 * ffmpeg over RTMP), one viewer per delivery path plays it, and after the warm-up the measured
 * window runs with nothing else happening: the viewers' frames and the server's CPU (its own and
 * its ffmpeg's; the RTMP encoder's apart, it is the bench's). Then the stream is ended, and the
 * next starts only once its ffmpeg is gone.
 */

import { loadavg } from 'node:os';
import { type Broadcast, endStream, goLive } from './broadcaster.ts';
import { type CpuUse, cpuBetween, snapshot, untilNoFfmpeg } from './cpu.ts';
import {
  type EncoderBroadcast,
  type EncoderRun,
  encoderCpuSeconds,
  encoderRun,
  endEncoderStream,
  goLiveFromEncoder,
} from './encoder.ts';
import type { Ingest } from './options.ts';
import { VIEWER_PATHS } from './paths.ts';
import { type ProbeState, readProbe } from './probe.ts';
import { problemsOf } from './problems.ts';
import { liveSegmentRate, type SegmentRate } from './segments.ts';
import type { Rig } from './setup.ts';
import { wait } from './stop.ts';
import { closeViewers, openViewers, type ViewerRun } from './viewers.ts';

export interface StreamRun {
  ingest: Ingest;
  roomPath: string;
  streamStartedAt: number;
  /** The measured window (wall time). */
  fromAt: number;
  toAt: number;
  /** The browser broadcaster's probe (its camera preview); none for RTMP. */
  sellerState: ProbeState | undefined;
  /** The RTMP encoder's frames and figures; none for the browser. */
  encoder: EncoderRun | undefined;
  sellerProblems: string[];
  viewers: ViewerRun[];
  /** The server and its ffmpeg over the window. */
  cpu: CpuUse;
  /** Video frames per second of media in the live playlist's newest segments at the window's end. */
  output: SegmentRate | undefined;
  loadAverage: { from: number[]; to: number[] };
}

const TITLES: Record<Ingest, string> = {
  h264: 'Latency bench',
  vp8: 'Latency bench VP8',
  rtmp: 'Latency bench RTMP',
};

type Broadcaster =
  | { kind: 'browser'; broadcast: Broadcast }
  | { kind: 'encoder'; broadcast: EncoderBroadcast };

export async function measureStream(rig: Rig, ingest: Ingest): Promise<StreamRun> {
  const { options } = rig;
  const left = await untilNoFfmpeg(rig.serverPid, 15_000);
  if (left.length) console.warn(`  !! the last stream's ffmpeg (${left.join(', ')}) is still running`);
  const broadcaster: Broadcaster =
    ingest === 'rtmp'
      ? { kind: 'encoder', broadcast: await goLiveFromEncoder(rig, TITLES[ingest]) }
      : { kind: 'browser', broadcast: await goLive(rig, TITLES[ingest], ingest) };
  const { roomPath, streamStartedAt } = broadcaster.broadcast;
  const open = await openViewers(rig, roomPath, VIEWER_PATHS);
  await wait(options.warmup * 1000);
  const fromAt = Date.now();
  const cpuFrom = snapshot(rig.serverPid);
  const encoderCpuFrom = broadcaster.kind === 'encoder' ? encoderCpuSeconds(broadcaster.broadcast) : 0;
  const loadFrom = loadavg();
  const toAt = fromAt + options.seconds * 1000;
  console.log(
    `  measuring ${options.seconds} s (${((fromAt - streamStartedAt) / 1000).toFixed(0)} s into the stream)`,
  );
  await wait(toAt - Date.now());
  const cpu = cpuBetween(cpuFrom, snapshot(rig.serverPid));
  const encoder =
    broadcaster.kind === 'encoder'
      ? encoderRun(broadcaster.broadcast, fromAt, toAt, {
          from: encoderCpuFrom,
          to: encoderCpuSeconds(broadcaster.broadcast),
        })
      : undefined;
  const loadTo = loadavg();
  const output = await liveSegmentRate(rig.base, roomPath.replace('/room/', ''));
  let sellerState: ProbeState | undefined;
  let sellerProblems: string[];
  let viewers: ViewerRun[];
  if (broadcaster.kind === 'browser') {
    const { seller } = broadcaster.broadcast;
    [sellerState, viewers] = await Promise.all([readProbe(seller.page), closeViewers(open)]);
    sellerProblems = problemsOf(seller);
    await endStream(broadcaster.broadcast);
  } else {
    viewers = await closeViewers(open);
    sellerProblems = encoder?.exitedEarly === undefined ? [] : [`ffmpeg exited ${encoder.exitedEarly}`];
    if (encoder?.stderr) sellerProblems.push(`[ffmpeg] ${encoder.stderr.slice(-300)}`);
    await endEncoderStream(broadcaster.broadcast);
  }
  console.log(
    `  ${ingest}: server + ffmpeg ${cpu.percent.toFixed(1)} % of a core over the window` +
      (encoder ? `; the bench's encoder ${encoder.cpuPercent.toFixed(1)} %` : ''),
  );
  return {
    ingest,
    roomPath,
    streamStartedAt,
    fromAt,
    toAt,
    sellerState,
    encoder,
    sellerProblems,
    viewers,
    cpu,
    output,
    loadAverage: { from: loadFrom, to: loadTo },
  };
}
