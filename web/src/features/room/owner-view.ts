/** What the seller's own room shows, from what the page knows of the stream and its publisher. */
export interface OwnerFacts {
  /** The server takes encoders (RTMP on): a live stream may be fed by one. */
  encodersTaken: boolean;
  /** An encoder publishes the stream now (its pipeline has started). */
  encoderConnected: boolean;
  /** The stream's encoder left and may come back within the grace. */
  encoderAway: boolean;
  /** The stream is live (started, not ended). */
  live: boolean;
  /** This page's camera publishes the stream. */
  broadcasting: boolean;
  /** The seller chose this page's camera while the stream was live from elsewhere (no encoder sending). */
  cameraChosen: boolean;
}

/**
 * `camera`: this page's camera preview with its toggles (what the seller publishes, or will).
 * `output`: the stream as viewers see it, from the same player, with End Stream only.
 */
export type OwnerStageKind = 'camera' | 'output';

export function ownerStageKind(facts: OwnerFacts): OwnerStageKind {
  if (facts.broadcasting) return 'camera';
  if (facts.encoderConnected) return 'output';
  // With no encoder sending, the seller may go on from this page's camera.
  if (facts.cameraChosen) return 'camera';
  if (facts.encoderAway) return 'output';
  // Live from elsewhere: an encoder whose pipeline is still starting (it goes live at its publish,
  // 'connected' a moment later), or this seller's camera on another page or before a reload.
  // Viewers' view until the seller picks the camera; without encoders only a camera can feed it.
  if (facts.live && facts.encodersTaken) return 'output';
  return 'camera';
}

/** The camera stage's main button: Start before the stream is live, End while this page sends. */
export type CameraAction = 'start' | 'resume' | 'end';

export function cameraAction({ live, broadcasting }: { live: boolean; broadcasting: boolean }): CameraAction {
  if (broadcasting) return 'end';
  // Live but this page sends nothing (a reload, another page): Resume sends this camera again.
  return live ? 'resume' : 'start';
}

export type EncoderStatus =
  /** An encoder publishes: the room shows what it sends. */
  | 'receiving'
  /** This page's camera publishes. */
  | 'camera'
  /** The encoder left the live stream; it may reconnect within the grace. */
  | 'away'
  /** Live, and nothing known to feed it yet (an encoder starting, or a camera gone). */
  | 'no-input'
  /** Not live: the stream starts when an encoder connects (or Start Stream). */
  | 'waiting';

export function encoderStatus(
  facts: Pick<OwnerFacts, 'encoderConnected' | 'encoderAway' | 'live' | 'broadcasting'>,
): EncoderStatus {
  if (facts.encoderConnected) return 'receiving';
  if (facts.broadcasting) return 'camera';
  if (facts.encoderAway) return 'away';
  return facts.live ? 'no-input' : 'waiting';
}

export const ENCODER_STATUS_LABELS: Record<EncoderStatus, string> = {
  receiving: 'Receiving from your encoder',
  camera: 'Live from your camera',
  away: 'Waiting for your encoder to reconnect',
  'no-input': 'No video coming in yet',
  waiting: 'Waiting for your encoder',
};
