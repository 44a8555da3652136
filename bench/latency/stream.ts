/**
 * One measured stream: a seller goes live, one viewer per delivery path plays it, and after the
 * warm-up the measured window runs with nothing else happening; then the stream is ended.
 */

import { type Broadcast, endStream, goLive } from './broadcaster.ts';
import { VIEWER_PATHS } from './paths.ts';
import { type ProbeState, readProbe } from './probe.ts';
import { problemsOf } from './problems.ts';
import type { Rig } from './setup.ts';
import { wait } from './stop.ts';
import { closeViewers, openViewers, type ViewerRun } from './viewers.ts';

export interface StreamRun {
  roomPath: string;
  streamStartedAt: number;
  /** The measured window (wall time). */
  fromAt: number;
  toAt: number;
  sellerState: ProbeState;
  sellerProblems: string[];
  viewers: ViewerRun[];
}

export async function measureStream(rig: Rig, title: string): Promise<StreamRun> {
  const { options } = rig;
  const broadcast: Broadcast = await goLive(rig, title);
  const { seller, roomPath, streamStartedAt } = broadcast;
  const open = await openViewers(rig, roomPath, VIEWER_PATHS);
  await wait(options.warmup * 1000);
  const fromAt = Date.now();
  const toAt = fromAt + options.seconds * 1000;
  console.log(
    `  measuring ${options.seconds} s (${((fromAt - streamStartedAt) / 1000).toFixed(0)} s into the stream)`,
  );
  await wait(toAt - Date.now());
  const [sellerState, viewers] = await Promise.all([readProbe(seller.page), closeViewers(open)]);
  const sellerProblems = problemsOf(seller);
  await endStream(broadcast);
  return { roomPath, streamStartedAt, fromAt, toAt, sellerState, sellerProblems, viewers };
}
