/**
 * Phase 2, measure: the loopback baseline; the idle server's CPU; a stream per ingest (the
 * browser's H.264, then VP8, then ffmpeg over RTMP), each measured with one viewer per delivery
 * path (WebSocket, HLS native, hls.js) and nothing else going on; then the late joins on a
 * stream of their own. Returns the pages' raw probe logs, the encoder's frames and the CPU figures.
 */

import { loadavg } from 'node:os';
import { type Loopback, measureLoopback } from './baseline.ts';
import { type CpuUse, idleCpu } from './cpu.ts';
import { type LateJoinStream, measureLateJoins } from './late-joins.ts';
import type { Rig } from './setup.ts';
import { measureStream, type StreamRun } from './stream.ts';

export interface Measured {
  loopback: Loopback | undefined;
  idle: CpuUse | undefined;
  streams: StreamRun[];
  lateJoins: LateJoinStream | undefined;
  loadAverageAfter: number[];
}

export async function measure(rig: Rig): Promise<Measured> {
  const { options } = rig;
  const loopback =
    options.baselineSeconds > 0 ? await measureLoopback(rig, options.baselineSeconds) : undefined;
  const idle = options.idleSeconds > 0 ? await idleCpu(rig.serverPid, options.idleSeconds) : undefined;
  if (idle)
    console.log(`  idle server: ${idle.percent.toFixed(2)} % of a core over ${options.idleSeconds} s`);
  const streams: StreamRun[] = [];
  for (const ingest of options.ingests) streams.push(await measureStream(rig, ingest));
  const lateJoins = options.lateJoins > 0 ? await measureLateJoins(rig, options.lateJoins) : undefined;
  const loadAverageAfter = loadavg();
  await rig.teardown.cleanup();
  return { loopback, idle, streams, lateJoins, loadAverageAfter };
}
