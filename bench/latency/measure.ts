/**
 * Phase 2, measure: the loopback baseline; a stream measured with one viewer per delivery path
 * (WebSocket, HLS native, hls.js) and nothing else going on; then the late joins on a stream of
 * their own. Returns the pages' raw probe logs.
 */

import { loadavg } from 'node:os';
import { type Loopback, measureLoopback } from './baseline.ts';
import { type LateJoinStream, measureLateJoins } from './late-joins.ts';
import type { Rig } from './setup.ts';
import { measureStream, type StreamRun } from './stream.ts';

export interface Measured {
  loopback: Loopback | undefined;
  stream: StreamRun;
  lateJoins: LateJoinStream | undefined;
  loadAverageAfter: number[];
}

export async function measure(rig: Rig): Promise<Measured> {
  const { options } = rig;
  const loopback =
    options.baselineSeconds > 0 ? await measureLoopback(rig, options.baselineSeconds) : undefined;
  const stream = await measureStream(rig, 'Latency bench');
  const lateJoins = options.lateJoins > 0 ? await measureLateJoins(rig, options.lateJoins) : undefined;
  const loadAverageAfter = loadavg();
  await rig.teardown.cleanup();
  return { loopback, stream, lateJoins, loadAverageAfter };
}
