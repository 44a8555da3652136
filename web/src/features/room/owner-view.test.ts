import { describe, expect, it } from 'vitest';
import { cameraAction, encoderStatus, type OwnerFacts, ownerStageKind } from './owner-view.ts';

const before: OwnerFacts = {
  encodersTaken: true,
  encoderConnected: false,
  encoderAway: false,
  live: false,
  broadcasting: false,
  cameraChosen: false,
};

describe('the seller’s own stage', () => {
  it('shows the camera before the stream is live, to go live from it', () => {
    expect(ownerStageKind(before)).toBe('camera');
    expect(encoderStatus(before)).toBe('waiting');
    expect(cameraAction(before)).toBe('start');
  });

  it('shows the stream’s output, not the camera, while an encoder sends it', () => {
    const facts = { ...before, live: true, encoderConnected: true };
    expect(ownerStageKind(facts)).toBe('output');
    expect(encoderStatus(facts)).toBe('receiving');
  });

  it('shows the output from the encoder’s publish, before its pipeline reports it connected', () => {
    const facts = { ...before, live: true };
    expect(ownerStageKind(facts)).toBe('output');
    expect(encoderStatus(facts)).toBe('no-input');
  });

  it('keeps the output while the encoder is away, until the seller picks the camera', () => {
    const away = { ...before, live: true, encoderAway: true };
    expect(ownerStageKind(away)).toBe('output');
    expect(encoderStatus(away)).toBe('away');
    expect(ownerStageKind({ ...away, cameraChosen: true })).toBe('camera');
    expect(cameraAction(away)).toBe('resume');
  });

  it('gives the stage back to an encoder that connects, even with the camera chosen', () => {
    expect(ownerStageKind({ ...before, live: true, encoderConnected: true, cameraChosen: true })).toBe(
      'output',
    );
  });

  it('keeps the camera while this page broadcasts it: End Stream, never Start Stream', () => {
    const facts = { ...before, live: true, broadcasting: true };
    expect(ownerStageKind(facts)).toBe('camera');
    expect(encoderStatus(facts)).toBe('camera');
    expect(cameraAction(facts)).toBe('end');
  });

  it('offers Resume, not Start, for a live stream this page does not send (after a reload)', () => {
    // Without encoders only a camera can feed it: straight to the camera.
    const noEncoders = { ...before, encodersTaken: false, live: true };
    expect(ownerStageKind(noEncoders)).toBe('camera');
    expect(cameraAction(noEncoders)).toBe('resume');
  });
});
