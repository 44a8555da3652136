import {
  LIVE_EDGE_CATCH_UP_AFTER_SEC,
  LIVE_EDGE_MAX_LAG_SEC,
  LIVE_EDGE_TARGET_SEC,
} from '@streamshop/contract/live.ts';
import { describe, expect, it } from 'vitest';
import {
  joinBuffers,
  liveEdgeRate,
  liveEdgeSeekTarget,
  staleBufferRange,
  startPosition,
} from './live-edge.ts';

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

describe('startPosition', () => {
  it('starts a late joiner just before the end of the first group', () => {
    expect(startPosition(3600, 3600.9)).toBeCloseTo(3600.9 - LIVE_EDGE_TARGET_SEC);
  });
  it('starts at the keyframe when less than the target has arrived', () => {
    expect(startPosition(3600, 3600.1)).toBe(3600);
  });
});

describe('joinBuffers', () => {
  it('keeps the order and every byte', () => {
    const joined = joinBuffers([
      new Uint8Array([1, 2]).buffer,
      new Uint8Array([]).buffer,
      new Uint8Array([3]).buffer,
    ]);
    expect([...new Uint8Array(joined)]).toEqual([1, 2, 3]);
  });
  it('passes a single buffer through', () => {
    const only = new Uint8Array([7]).buffer;
    expect(joinBuffers([only])).toBe(only);
  });
});

describe('liveEdgeRate', () => {
  const behind = (lag: number) => 10 - lag;
  const catchUpAt = LIVE_EDGE_TARGET_SEC + LIVE_EDGE_CATCH_UP_AFTER_SEC;
  it('plays faster once well behind the target, and normally again at the target', () => {
    expect(liveEdgeRate(10, behind(LIVE_EDGE_TARGET_SEC), 1)).toBe(1);
    expect(liveEdgeRate(10, behind(catchUpAt + 0.05), 1)).toBeGreaterThan(1);
    // Between the target and the catch-up threshold it keeps what it was doing.
    const between = behind((LIVE_EDGE_TARGET_SEC + catchUpAt) / 2);
    expect(liveEdgeRate(10, between, 1.1)).toBe(1.1);
    expect(liveEdgeRate(10, between, 1)).toBe(1);
    expect(liveEdgeRate(10, behind(LIVE_EDGE_TARGET_SEC - 0.05), 1.1)).toBe(1);
  });
  it('plays normally when positions are unknown', () => {
    expect(liveEdgeRate(Number.NaN, 0, 1.1)).toBe(1);
  });
});
