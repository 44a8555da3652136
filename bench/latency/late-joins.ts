/**
 * Late joins, on a stream of their own (H.264 ingest, nobody else watching): signed-out viewers,
 * one after another, each in a fresh browser context (cold cache), open /room/:name with no
 * `?path=` (the automatic path) while it is live; each stays a few seconds after its first frame
 * so its latency settles, then closes. They are spread over the free plan's 1:39: the first ~8 s
 * after the start, then one every min(6 s, 80 s / count); a join that could not start 88 s into
 * the stream is recorded as not run.
 */

import { type Broadcast, endStream, goLive } from './broadcaster.ts';
import { untilNoFfmpeg } from './cpu.ts';
import { FREE_PLAN_BUDGET_SEC } from './options.ts';
import { LIVE_VIDEO, type ProbeState, readProbe, waitForDecodedFrame } from './probe.ts';
import { problemsOf } from './problems.ts';
import type { Rig } from './setup.ts';
import { checkNotStopped, wait } from './stop.ts';
import { videoPathOf } from './viewers.ts';

/** The first join this long after the stream started (the pipeline's output is steady by then). */
const FIRST_JOIN_SEC = 8;
/** A join starts at most this long after the stream started. */
const LAST_JOIN_SEC = FREE_PLAN_BUDGET_SEC - 2;
const MAX_SLOT_SEC = 6;
/** How long a late joiner stays after its first frame, at most (less when the slots are short). */
export const LATE_JOIN_HOLD_MS = 4000;
const FIRST_FRAME_TIMEOUT_MS = 10_000;

export interface LateJoinRun {
  index: number;
  gotoAt: number;
  closedAt: number;
  /** The video's data-path / data-engine while it played. */
  dataPath: string;
  dataEngine: string;
  state?: ProbeState;
  error?: string;
  problems: string[];
}

export interface LateJoinStream {
  roomPath: string;
  streamStartedAt: number;
  sellerState: ProbeState;
  sellerProblems: string[];
  runs: LateJoinRun[];
}

const errorText = (error: unknown) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

async function join(rig: Rig, roomPath: string, index: number, holdMs: number): Promise<LateJoinRun> {
  const watched = await rig.open([{ name: 'live', selector: LIVE_VIDEO }]);
  const run: LateJoinRun = {
    index,
    gotoAt: Date.now(),
    closedAt: 0,
    dataPath: '',
    dataEngine: '',
    problems: [],
  };
  try {
    await watched.page.goto(roomPath);
    await waitForDecodedFrame(watched.page, 'live', FIRST_FRAME_TIMEOUT_MS);
    const { path, engine } = await videoPathOf(watched.page);
    run.dataPath = path;
    run.dataEngine = engine;
    await wait(holdMs);
  } catch (error) {
    checkNotStopped();
    run.error = errorText(error);
  }
  run.state = await readProbe(watched.page).catch(() => undefined);
  run.problems = problemsOf(watched);
  await watched.close();
  run.closedAt = Date.now();
  return run;
}

export async function measureLateJoins(rig: Rig, count: number): Promise<LateJoinStream> {
  await untilNoFfmpeg(rig.serverPid, 15_000);
  const broadcast: Broadcast = await goLive(rig, 'Latency bench late joins');
  const { seller, roomPath, streamStartedAt } = broadcast;
  const slotMs = Math.min(MAX_SLOT_SEC, (LAST_JOIN_SEC - FIRST_JOIN_SEC) / count) * 1000;
  const holdMs = Math.max(1500, Math.min(LATE_JOIN_HOLD_MS, slotMs - 2500));
  const runs: LateJoinRun[] = [];
  for (let i = 0; i < count; i++) {
    await wait(streamStartedAt + FIRST_JOIN_SEC * 1000 + i * slotMs - Date.now());
    if (Date.now() > streamStartedAt + LAST_JOIN_SEC * 1000) {
      const at = Date.now();
      const error = `not run: ${LAST_JOIN_SEC} s into the stream (the free plan ends it at 1:39)`;
      runs.push({
        index: i + 1,
        gotoAt: at,
        closedAt: at,
        dataPath: '',
        dataEngine: '',
        error,
        problems: [],
      });
      continue;
    }
    const run = await join(rig, roomPath, i + 1, holdMs);
    runs.push(run);
    console.log(`  late join ${run.index}${run.error ? `: ${run.error}` : ` on ${run.dataPath || '?'}`}`);
  }
  const sellerState = await readProbe(seller.page);
  const sellerProblems = problemsOf(seller);
  await endStream(broadcast);
  return { roomPath, streamStartedAt, sellerState, sellerProblems, runs };
}
