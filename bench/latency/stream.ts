/**
 * One measured stream: a seller goes live with the given ingest (H.264 or VP8), one viewer per
 * delivery path plays it, and after the warm-up the measured window runs with nothing else
 * happening: the viewers' frames and the server's CPU (its own and its ffmpeg's). Then the
 * stream is ended, and the next starts only once its ffmpeg is gone.
 */

import { loadavg } from 'node:os';
import { type Broadcast, endStream, goLive } from './broadcaster.ts';
import { type CpuUse, cpuBetween, snapshot, untilNoFfmpeg } from './cpu.ts';
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
  sellerState: ProbeState;
  sellerProblems: string[];
  viewers: ViewerRun[];
  /** The server and its ffmpeg over the window. */
  cpu: CpuUse;
  /** Video frames per second of media in the live playlist's newest segments at the window's end. */
  output: SegmentRate | undefined;
  loadAverage: { from: number[]; to: number[] };
}

const TITLES: Record<Ingest, string> = { h264: 'Latency bench', vp8: 'Latency bench VP8' };

export async function measureStream(rig: Rig, ingest: Ingest): Promise<StreamRun> {
  const { options } = rig;
  const left = await untilNoFfmpeg(rig.serverPid, 15_000);
  if (left.length) console.warn(`  !! the last stream's ffmpeg (${left.join(', ')}) is still running`);
  const broadcast: Broadcast = await goLive(rig, TITLES[ingest], ingest);
  const { seller, roomPath, streamStartedAt } = broadcast;
  const open = await openViewers(rig, roomPath, VIEWER_PATHS);
  await wait(options.warmup * 1000);
  const fromAt = Date.now();
  const cpuFrom = snapshot(rig.serverPid);
  const loadFrom = loadavg();
  const toAt = fromAt + options.seconds * 1000;
  console.log(
    `  measuring ${options.seconds} s (${((fromAt - streamStartedAt) / 1000).toFixed(0)} s into the stream)`,
  );
  await wait(toAt - Date.now());
  const cpu = cpuBetween(cpuFrom, snapshot(rig.serverPid));
  const loadTo = loadavg();
  const output = await liveSegmentRate(rig.base, roomPath.replace('/room/', ''));
  const [sellerState, viewers] = await Promise.all([readProbe(seller.page), closeViewers(open)]);
  const sellerProblems = problemsOf(seller);
  await endStream(broadcast);
  console.log(`  ${ingest}: server + ffmpeg ${cpu.percent.toFixed(1)} % of a core over the window`);
  return {
    ingest,
    roomPath,
    streamStartedAt,
    fromAt,
    toAt,
    sellerState,
    sellerProblems,
    viewers,
    cpu,
    output,
    loadAverage: { from: loadFrom, to: loadTo },
  };
}
