/**
 * Late joins: signed-out viewers, each in a fresh browser context (cold cache), open the room
 * while it is live, spread over the measured window; each stays a few seconds after its first
 * frame so its latency settles, then closes.
 */

import { LIVE_VIDEO, type ProbeState, readProbe, waitForDecodedFrame } from './probe.ts';
import { problemsOf } from './problems.ts';
import type { Rig } from './setup.ts';
import { checkNotStopped, wait } from './stop.ts';

/** How long a late joiner stays after its first frame. */
export const LATE_JOIN_HOLD_MS = 5000;
const FIRST_FRAME_TIMEOUT_MS = 10_000;

export interface LateJoinRun {
  index: number;
  gotoAt: number;
  closedAt: number;
  state?: ProbeState;
  error?: string;
  problems: string[];
}

/** `count` joins, one at a time, the i-th at (i + 1) / (count + 1) of the window [fromAt, fromAt + seconds). */
export async function runLateJoins(
  rig: Rig,
  roomPath: string,
  fromAt: number,
  seconds: number,
  count: number,
): Promise<LateJoinRun[]> {
  const runs: LateJoinRun[] = [];
  for (let i = 0; i < count; i++) {
    await wait(fromAt + (seconds * 1000 * (i + 1)) / (count + 1) - Date.now());
    const watched = await rig.open([{ name: 'live', selector: LIVE_VIDEO }]);
    const run: LateJoinRun = { index: i + 1, gotoAt: Date.now(), closedAt: 0, problems: [] };
    runs.push(run);
    try {
      await watched.page.goto(roomPath);
      await waitForDecodedFrame(watched.page, 'live', FIRST_FRAME_TIMEOUT_MS);
      await wait(LATE_JOIN_HOLD_MS);
    } catch (error) {
      checkNotStopped();
      run.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
    run.state = await readProbe(watched.page).catch(() => undefined);
    run.problems = problemsOf(watched);
    await watched.close();
    run.closedAt = Date.now();
    console.log(`  late join ${i + 1} done${run.error ? `: ${run.error}` : ''}`);
  }
  return runs;
}
