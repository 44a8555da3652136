import { LIVE_EDGE_MAX_LAG_SEC, LIVE_EDGE_TARGET_SEC } from '@streamshop/contract/live.ts';

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
