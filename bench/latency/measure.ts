/**
 * Phase 2, measure: the loopback baseline, then the broadcaster goes live, one viewer per delivery
 * path (WebSocket, HLS native, hls.js) plays it, and over the measured window the late joins come
 * and go. Returns the pages' raw probe logs.
 */

import { loadavg } from 'node:os';
import { type Loopback, measureLoopback } from './baseline.ts';
import { goLive } from './broadcaster.ts';
import { type LateJoinRun, runLateJoins } from './late-joins.ts';
import { VIEWER_PATHS } from './paths.ts';
import { type ProbeState, readProbe } from './probe.ts';
import { problemsOf } from './problems.ts';
import type { Rig } from './setup.ts';
import { wait } from './stop.ts';
import { closeViewers, openViewers, type ViewerRun } from './viewers.ts';

export interface Measured {
  loopback: Loopback | undefined;
  streamStartedAt: number;
  /** The measured window (wall time). */
  fromAt: number;
  toAt: number;
  sellerState: ProbeState;
  viewers: ViewerRun[];
  lateJoinRuns: LateJoinRun[];
  sellerProblems: string[];
  loadAverageAfter: number[];
}

export async function measure(rig: Rig): Promise<Measured> {
  const { options } = rig;
  const loopback =
    options.baselineSeconds > 0 ? await measureLoopback(rig, options.baselineSeconds) : undefined;

  const { seller, roomPath, streamStartedAt } = await goLive(rig);

  // The viewers, then the measured window with the late joins in it.
  const open = await openViewers(rig, roomPath, VIEWER_PATHS);
  await wait(options.warmup * 1000);
  const fromAt = Date.now();
  const toAt = fromAt + options.seconds * 1000;
  console.log(`  measuring ${options.seconds} s`);

  const lateJoins = runLateJoins(rig, roomPath, fromAt, options.seconds, options.lateJoins);
  await wait(toAt - Date.now());
  const lateJoinRuns = await lateJoins;
  const [sellerState, viewers] = await Promise.all([readProbe(seller.page), closeViewers(open)]);
  const sellerProblems = problemsOf(seller);
  const loadAverageAfter = loadavg();
  await rig.teardown.cleanup();
  return {
    loopback,
    streamStartedAt,
    fromAt,
    toAt,
    sellerState,
    viewers,
    lateJoinRuns,
    sellerProblems,
    loadAverageAfter,
  };
}
