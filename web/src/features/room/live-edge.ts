import {
  LIVE_EDGE_CATCH_UP_AFTER_SEC,
  LIVE_EDGE_CATCH_UP_RATE,
  LIVE_EDGE_MAX_LAG_SEC,
  LIVE_EDGE_TARGET_SEC,
} from '@streamshop/contract/live-media.ts';

/**
 * Where a live viewer should jump to, or null to keep playing: when the playhead is more than
 * LIVE_EDGE_MAX_LAG_SEC behind the end of what is buffered, jump to LIVE_EDGE_TARGET_SEC before it.
 */
export function liveEdgeSeekTarget(
  bufferedEnd: number,
  currentTime: number,
  maxLagSec: number = LIVE_EDGE_MAX_LAG_SEC,
  targetSec: number = LIVE_EDGE_TARGET_SEC,
): number | null {
  if (!Number.isFinite(bufferedEnd) || !Number.isFinite(currentTime)) return null;
  if (bufferedEnd - currentTime <= maxLagSec) return null;
  return Math.max(0, bufferedEnd - targetSec);
}

/**
 * The playback rate that brings a live viewer back to LIVE_EDGE_TARGET_SEC behind the end of what
 * is buffered without a jump: faster once more than LIVE_EDGE_CATCH_UP_AFTER_SEC further behind,
 * normal again at the target (in between, whatever it was: no flapping at one threshold). Without
 * it a viewer kept whatever lag a hiccup left, up to LIVE_EDGE_MAX_LAG_SEC, for the whole stream.
 */
export function liveEdgeRate(
  bufferedEnd: number,
  currentTime: number,
  rate: number,
  targetSec: number = LIVE_EDGE_TARGET_SEC,
  catchUpAfterSec: number = LIVE_EDGE_CATCH_UP_AFTER_SEC,
): number {
  if (!Number.isFinite(bufferedEnd) || !Number.isFinite(currentTime)) return 1;
  const lag = bufferedEnd - currentTime;
  if (lag > targetSec + catchUpAfterSec) return LIVE_EDGE_CATCH_UP_RATE;
  if (lag <= targetSec) return 1;
  return rate;
}

/**
 * Where a viewer who has just joined starts: LIVE_EDGE_TARGET_SEC before the end of what the
 * first append buffered (the group since the latest keyframe), or its start when it is shorter.
 */
export function startPosition(
  bufferedStart: number,
  bufferedEnd: number,
  targetSec: number = LIVE_EDGE_TARGET_SEC,
): number {
  return Math.max(bufferedStart, bufferedEnd - targetSec);
}

/** The buffers as one, in order (the one buffer itself when there is only one). */
export function joinBuffers(buffers: ArrayBuffer[]): ArrayBuffer {
  if (buffers.length === 1 && buffers[0]) return buffers[0];
  const joined = new Uint8Array(buffers.reduce((n, b) => n + b.byteLength, 0));
  let offset = 0;
  for (const buffer of buffers) {
    joined.set(new Uint8Array(buffer), offset);
    offset += buffer.byteLength;
  }
  return joined.buffer;
}

/**
 * The start of buffered media older than `keepSec` behind the playhead that can be dropped to
 * bound memory, as [start, end), or null when there is nothing worth removing.
 */
export function staleBufferRange(
  bufferedStart: number,
  currentTime: number,
  keepSec = 10,
  minimumSec = 20,
): [number, number] | null {
  const end = currentTime - keepSec;
  if (end - bufferedStart < minimumSec - keepSec) return null;
  return [bufferedStart, end];
}
