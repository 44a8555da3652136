import { describe, expect, it } from 'vitest';
import { cameraConstraints } from './use-camera.ts';

describe('cameraConstraints', () => {
  it('asks for at most the plan’s picture, landscape by default', () => {
    expect(cameraConstraints('free')).toEqual({ width: { max: 854 }, height: { max: 480 } });
    expect(cameraConstraints('pro')).toEqual({
      width: { ideal: 1920, max: 1920 },
      height: { ideal: 1080, max: 1080 },
    });
  });

  it('turns the bounds upright for a phone held upright (the server takes either way up)', () => {
    expect(cameraConstraints('free', true)).toEqual({
      width: { max: 480 },
      height: { max: 854 },
      aspectRatio: { ideal: 9 / 16 },
    });
    expect(cameraConstraints('pro', true)).toEqual({
      width: { ideal: 1080, max: 1080 },
      height: { ideal: 1920, max: 1920 },
      aspectRatio: { ideal: 9 / 16 },
    });
  });
});
