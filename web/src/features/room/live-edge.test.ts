import { LIVE_EDGE_MAX_LAG_SEC, LIVE_EDGE_TARGET_SEC } from '@streamshop/contract/live.ts';
import { describe, expect, it } from 'vitest';
import { liveEdgeSeekTarget, staleBufferRange } from './live-edge.ts';

describe('liveEdgeSeekTarget', () => {
  it('keeps playing while within the allowed lag', () => {
    expect(liveEdgeSeekTarget(10, 10 - LIVE_EDGE_MAX_LAG_SEC + 0.01)).toBeNull();
    expect(liveEdgeSeekTarget(10, 9.9)).toBeNull();
  });
  it('jumps to just before the live edge when too far behind', () => {
    expect(liveEdgeSeekTarget(10, 8)).toBeCloseTo(10 - LIVE_EDGE_TARGET_SEC);
  });
  it('handles late joiners whose timestamps start far from zero', () => {
    expect(liveEdgeSeekTarget(3605.2, 0)).toBeCloseTo(3605.2 - LIVE_EDGE_TARGET_SEC);
  });
  it('ignores non-finite positions', () => {
    expect(liveEdgeSeekTarget(Number.NaN, 0)).toBeNull();
    expect(liveEdgeSeekTarget(Number.POSITIVE_INFINITY, 0)).toBeNull();
  });
});

describe('staleBufferRange', () => {
  it('keeps a short buffer', () => {
    expect(staleBufferRange(0, 15)).toBeNull();
  });
  it('drops media more than 10 s behind once 20 s have piled up', () => {
    expect(staleBufferRange(100, 125)).toEqual([100, 115]);
  });
});
