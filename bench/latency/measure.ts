/**
 * Phase 2, measure: the loopback baseline, then the broadcaster goes live, a viewer plays it, and
 * over the measured window the late joins come and go. Returns the pages' raw probe logs.
 */

import { loadavg } from 'node:os';
import { type Loopback, measureLoopback } from './baseline.ts';
import { goLive } from './broadcaster.ts';
import { type LateJoinRun, runLateJoins } from './late-joins.ts';
import { LIVE_VIDEO, type ProbeState, readProbe, waitForDecodedFrame } from './probe.ts';
import { problemsOf } from './problems.ts';
import type { Rig } from './setup.ts';
import { wait } from './stop.ts';

export interface Measured {
  loopback: Loopback | undefined;
  streamStartedAt: number;
  /** The measured window (wall time). */
  fromAt: number;
  toAt: number;
  viewerFirstFrameMs: number;
  sellerState: ProbeState;
  viewerState: ProbeState;
  lateJoinRuns: LateJoinRun[];
  problems: { seller: string[]; viewer: string[] };
  loadAverageAfter: number[];
}

export async function measure(rig: Rig): Promise<Measured> {
  const { options } = rig;
  const loopback =
    options.baselineSeconds > 0 ? await measureLoopback(rig, options.baselineSeconds) : undefined;

  const { seller, roomPath, streamStartedAt } = await goLive(rig);

  // The viewer, then the measured window with the late joins in it.
  const viewer = await rig.open([{ name: 'live', selector: LIVE_VIDEO }]);
  const viewerGotoAt = Date.now();
  await viewer.page.goto(roomPath);
  await waitForDecodedFrame(viewer.page, 'live', 15_000);
  const viewerFirstFrameMs = Date.now() - viewerGotoAt;
  await wait(options.warmup * 1000);
  const fromAt = Date.now();
  const toAt = fromAt + options.seconds * 1000;
  console.log(
    `  viewer playing (first frame ${viewerFirstFrameMs} ms after goto); measuring ${options.seconds} s`,
  );

  const lateJoins = runLateJoins(rig, roomPath, fromAt, options.seconds, options.lateJoins);
  await wait(toAt - Date.now());
  const lateJoinRuns = await lateJoins;
  const [sellerState, viewerState] = await Promise.all([readProbe(seller.page), readProbe(viewer.page)]);
  const problems = { seller: problemsOf(seller), viewer: problemsOf(viewer) };
  const loadAverageAfter = loadavg();
  await rig.teardown.cleanup();
  return {
    loopback,
    streamStartedAt,
    fromAt,
    toAt,
    viewerFirstFrameMs,
    sellerState,
    viewerState,
    lateJoinRuns,
    problems,
    loadAverageAfter,
  };
}
