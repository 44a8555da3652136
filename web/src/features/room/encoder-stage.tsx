import { Camera, Loader2, MonitorUp, Square } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import type { EncoderStatus } from './owner-view.ts';
import { ViewerStage } from './viewer-stage.tsx';

/** What the stage says under the video, by what feeds the stream. */
const STAGE_LINES: Partial<Record<EncoderStatus, string>> = {
  receiving: 'Receiving from your encoder: this is what viewers see.',
  away: 'Your encoder disconnected: viewers wait while it reconnects.',
  'no-input': 'You are live: this is what viewers see.',
};

/**
 * The host's stage while the stream is live from something other than this page's camera (an
 * encoder such as OBS): the live video as viewers see it, from the same player and muted at first
 * (no echo), no camera, and End Stream. With no encoder sending, the seller may switch to the camera.
 */
export function EncoderStage({
  roomName,
  live,
  posterUrl,
  status,
  busy,
  onEnd,
  onUseCamera,
}: {
  roomName: string;
  live: boolean;
  posterUrl?: string | null;
  status: EncoderStatus;
  busy: boolean;
  onEnd: () => void;
  /** Show this page's camera instead (offered while no encoder sends). */
  onUseCamera: () => void;
}) {
  const away = status === 'away';
  return (
    <ViewerStage
      roomName={roomName}
      live={live}
      posterUrl={posterUrl}
      waitingText={
        away
          ? 'Waiting for your encoder to reconnect…'
          : status === 'no-input'
            ? 'Waiting for video from your encoder or camera…'
            : undefined
      }
      // The player can miss that its source left (its last frames append after media_idle);
      // the polled encoder state cannot.
      forceWaiting={away}
    >
      <div className="flex flex-wrap items-center gap-2" data-testid="encoder-stage" data-state={status}>
        <p className="flex min-w-0 items-center gap-2 text-muted-foreground text-sm">
          <MonitorUp className="size-4 shrink-0 text-primary" aria-hidden="true" />
          {STAGE_LINES[status] ?? STAGE_LINES.receiving}
        </p>
        <div className="ml-auto flex flex-wrap justify-end gap-2">
          {status !== 'receiving' ? (
            <Button variant="outline" onClick={onUseCamera} disabled={busy} data-testid="use-camera">
              <Camera aria-hidden="true" />
              Use my camera
            </Button>
          ) : null}
          <Button variant="destructive" onClick={onEnd} disabled={busy} data-testid="end-stream">
            {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Square aria-hidden="true" />}
            End Stream
          </Button>
        </div>
      </div>
    </ViewerStage>
  );
}
