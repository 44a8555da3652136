import type { Plan } from '@streamshop/contract/constants.ts';
import { PLAN_VIDEO } from '@streamshop/contract/ingest.ts';
import { useCallback, useEffect, useState } from 'react';
import { useAuth } from '../../lib/session/use-auth.ts';

export const CAMERA_ERROR_TITLE = 'Camera Error';
export const CAMERA_ERROR_MESSAGE = 'Unable to access camera and microphone. Please check permissions.';

export type CameraState =
  | { status: 'pending' }
  | { status: 'ready'; stream: MediaStream }
  | { status: 'error' };

function setTracksEnabled(tracks: MediaStreamTrack[], enabled: boolean): void {
  for (const track of tracks) track.enabled = enabled;
}

/** A phone (a touch screen) held upright: its seller goes live in portrait. */
export const UPRIGHT_PHONE_QUERY = '(orientation: portrait) and (pointer: coarse)';

/**
 * At most the plan's picture (turned upright for `portrait`). Free asks for no particular size (cameras give their own default,
 * 640×480 on most): asking for 854×480 makes Chromium scale the frames, and its H.264 recorder
 * then declares a larger picture than it sends, which the server would refuse. Pro asks for its
 * full size, which HD cameras give as it is.
 */
export function cameraConstraints(plan: Plan, portrait = false): MediaTrackConstraints {
  const landscape = PLAN_VIDEO[plan];
  // A phone held upright publishes an upright picture: the same bounds, turned.
  const [width, height] = portrait
    ? [landscape.height, landscape.width]
    : [landscape.width, landscape.height];
  const bounds: MediaTrackConstraints =
    plan === 'pro'
      ? { width: { ideal: width, max: width }, height: { ideal: height, max: height } }
      : { width: { max: width }, height: { max: height } };
  // A camera that gives landscape frames whatever the phone's way up is cropped to 9:16.
  return portrait ? { ...bounds, aspectRatio: { ideal: 9 / 16 } } : bounds;
}

/**
 * The broadcaster's camera and microphone (getUserMedia, audio + video). Mic and camera toggles
 * enable or disable the tracks, so the recording keeps going (black/silent) while one is off.
 * Every track stops on unmount or when `stop()` is called. The camera is asked for at most the
 * owner's plan's picture (480p on Free, 1080p on Pro): the server refuses anything larger.
 */
export function useCamera(enabled: boolean) {
  const [camera, setCamera] = useState<CameraState>({ status: 'pending' });
  const [micOn, setMicOn] = useState(true);
  const [cameraOn, setCameraOn] = useState(true);
  const plan = useAuth().user?.plan ?? 'free';

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let acquired: MediaStream | null = null;
    setCamera({ status: 'pending' });
    const request = navigator.mediaDevices?.getUserMedia?.({
      audio: true,
      video: cameraConstraints(plan, window.matchMedia?.(UPRIGHT_PHONE_QUERY).matches ?? false),
    });
    if (!request) {
      setCamera({ status: 'error' });
      return;
    }
    request.then(
      (stream) => {
        if (cancelled) {
          for (const track of stream.getTracks()) track.stop();
          return;
        }
        acquired = stream;
        setMicOn(true);
        setCameraOn(true);
        setCamera({ status: 'ready', stream });
      },
      () => {
        if (!cancelled) setCamera({ status: 'error' });
      },
    );
    return () => {
      cancelled = true;
      if (acquired) for (const track of acquired.getTracks()) track.stop();
    };
  }, [enabled, plan]);

  const stream = camera.status === 'ready' ? camera.stream : null;

  const toggleMic = useCallback(() => {
    if (!stream) return;
    setTracksEnabled(stream.getAudioTracks(), !micOn);
    setMicOn(!micOn);
  }, [stream, micOn]);

  const toggleCamera = useCallback(() => {
    if (!stream) return;
    setTracksEnabled(stream.getVideoTracks(), !cameraOn);
    setCameraOn(!cameraOn);
  }, [stream, cameraOn]);

  const stop = useCallback(() => {
    if (stream) for (const track of stream.getTracks()) track.stop();
  }, [stream]);

  return { camera, stream, micOn, cameraOn, toggleMic, toggleCamera, stop };
}
