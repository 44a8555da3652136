import { Camera, CameraOff, Loader2, Mic, MicOff, Radio, Square, VideoOff } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../../components/ui/button.tsx';
import type { CameraAction } from './owner-view.ts';
import { CAMERA_ERROR_MESSAGE, CAMERA_ERROR_TITLE, type useCamera } from './use-camera.ts';

/**
 * The host's stage when the camera is what they publish: the local preview (muted), mic and camera
 * toggles, and Start Stream before the stream is live, End Stream while this page sends it, or
 * Resume Stream and End Stream while it is live and this page sends nothing (after a reload).
 */
export function OwnerStage({
  camera,
  action,
  busy,
  onStart,
  onEnd,
}: {
  camera: ReturnType<typeof useCamera>;
  action: CameraAction;
  busy: boolean;
  onStart: () => void;
  onEnd: () => void;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const { stream, micOn, cameraOn, toggleMic, toggleCamera } = camera;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.srcObject = stream;
    if (stream) video.play().catch(() => {});
  }, [stream]);

  const failed = camera.camera.status === 'error';
  // A phone held upright publishes portrait (use-camera.ts): the preview shows it upright too.
  const settings = stream?.getVideoTracks()[0]?.getSettings();
  const portrait = (settings?.height ?? 0) > (settings?.width ?? 0);

  return (
    <div className="grid gap-3">
      <div
        className={
          portrait
            ? 'relative mx-auto aspect-[9/16] max-h-[75dvh] w-full overflow-hidden rounded-xl bg-black'
            : 'relative aspect-video w-full overflow-hidden rounded-xl bg-black'
        }
        data-orientation={portrait ? 'portrait' : 'landscape'}
      >
        <video
          ref={videoRef}
          className="size-full -scale-x-100 object-contain"
          autoPlay
          playsInline
          muted
          aria-label="Camera preview"
          data-testid="camera-preview"
        />
        {camera.camera.status === 'pending' ? (
          <div className="absolute inset-0 flex items-center justify-center" role="status">
            <Loader2 className="size-8 animate-spin text-primary" aria-hidden="true" />
            <span className="sr-only">Starting the camera…</span>
          </div>
        ) : null}
        {failed ? (
          <div
            className="absolute inset-0 flex flex-col items-center justify-center gap-2 p-6 text-center"
            role="alert"
            data-testid="camera-error"
          >
            <VideoOff className="size-10 text-destructive" aria-hidden="true" />
            <p className="font-semibold">{CAMERA_ERROR_TITLE}</p>
            <p className="max-w-sm text-muted-foreground text-sm">{CAMERA_ERROR_MESSAGE}</p>
          </div>
        ) : null}
        {stream && !cameraOn ? (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-black text-muted-foreground">
            <CameraOff className="size-10" aria-hidden="true" />
            <p className="text-sm">Camera is off</p>
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant={micOn ? 'secondary' : 'destructive'}
          size="icon"
          onClick={toggleMic}
          disabled={!stream}
          aria-label={micOn ? 'Turn microphone off' : 'Turn microphone on'}
          aria-pressed={!micOn}
          data-testid="toggle-mic"
        >
          {micOn ? <Mic aria-hidden="true" /> : <MicOff aria-hidden="true" />}
        </Button>
        <Button
          variant={cameraOn ? 'secondary' : 'destructive'}
          size="icon"
          onClick={toggleCamera}
          disabled={!stream}
          aria-label={cameraOn ? 'Turn camera off' : 'Turn camera on'}
          aria-pressed={!cameraOn}
          data-testid="toggle-camera"
        >
          {cameraOn ? <Camera aria-hidden="true" /> : <CameraOff aria-hidden="true" />}
        </Button>
        <div className="ml-auto flex flex-wrap justify-end gap-2">
          {action === 'start' ? (
            <Button onClick={onStart} disabled={!stream || busy} data-testid="start-stream">
              {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Radio aria-hidden="true" />}
              Start Stream
            </Button>
          ) : null}
          {action === 'resume' ? (
            <Button onClick={onStart} disabled={!stream || busy} data-testid="resume-stream">
              {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Radio aria-hidden="true" />}
              Resume Stream
            </Button>
          ) : null}
          {action !== 'start' ? (
            <Button variant="destructive" onClick={onEnd} disabled={busy} data-testid="end-stream">
              {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Square aria-hidden="true" />}
              End Stream
            </Button>
          ) : null}
        </div>
      </div>
    </div>
  );
}
