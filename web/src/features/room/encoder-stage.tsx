import { Loader2, MonitorUp, Square } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { ViewerStage } from './viewer-stage.tsx';

/**
 * The host's stage while an encoder (OBS) streams: the live video as viewers see it, no camera,
 * and End Stream. While the encoder is away it says the stream waits for it.
 */
export function EncoderStage({
  roomName,
  live,
  posterUrl,
  encoderConnected,
  busy,
  onEnd,
}: {
  roomName: string;
  live: boolean;
  posterUrl?: string | null;
  encoderConnected: boolean;
  busy: boolean;
  onEnd: () => void;
}) {
  return (
    <ViewerStage
      roomName={roomName}
      live={live}
      posterUrl={posterUrl}
      waitingText={encoderConnected ? undefined : 'Waiting for your encoder to reconnect…'}
      // The player can miss that its source left (its last frames append after media_idle);
      // the polled encoder state cannot.
      forceWaiting={!encoderConnected}
    >
      <div className="flex flex-wrap items-center gap-2" data-testid="encoder-stage">
        <p className="flex items-center gap-2 text-muted-foreground text-sm">
          <MonitorUp className="size-4 shrink-0 text-primary" aria-hidden="true" />
          Streaming from your encoder: this is what viewers see.
        </p>
        <Button
          variant="destructive"
          className="ml-auto"
          onClick={onEnd}
          disabled={busy}
          data-testid="end-stream"
        >
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Square aria-hidden="true" />}
          End Stream
        </Button>
      </div>
    </ViewerStage>
  );
}
