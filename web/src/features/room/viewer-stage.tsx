import { Loader2, Volume2, VolumeX } from 'lucide-react';
import { type ReactNode, type RefObject, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { LiveVideo } from './live-video.tsx';
import type { PlayerStatus } from './media-player.ts';
import { useLivePlayer } from './use-live-player.ts';

/** Muted autoplay (browsers require it) and the one tap that turns the sound on or off. */
export function useSound(videoRef: RefObject<HTMLVideoElement | null>) {
  const [muted, setMuted] = useState(true);
  const toggle = () => {
    const video = videoRef.current;
    if (!video) return;
    video.muted = !muted;
    setMuted(!muted);
    if (!video.muted) video.play().catch(() => {});
  };
  return { muted, toggle };
}

/** Over the video while it does not play: connecting, starting soon, or not playable here. */
export function PlayerWaiting({ status, text }: { status: PlayerStatus; text: string }) {
  return (
    <div
      className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/70 p-6 text-center"
      role="status"
      data-testid="player-status"
    >
      {status === 'unsupported' ? (
        <p className="text-sm">This browser cannot play the live video.</p>
      ) : (
        <>
          <Loader2 className="size-8 animate-spin text-primary" aria-hidden="true" />
          <p className="text-sm">{text}</p>
        </>
      )}
    </div>
  );
}

/** What the waiting notice says by default. */
export const waitingTextFor = (live: boolean) =>
  live ? 'Connecting to the live video…' : 'The stream will start soon. Stay tuned!';

/**
 * The live video for viewers: muted autoplay (browsers require it) with a visible unmute button.
 * `children` (the pinned products) sit over the video's corner, or under it on a narrow screen.
 */
export function ViewerStage({
  roomName,
  live,
  posterUrl,
  waitingText,
  forceWaiting = false,
  children,
}: {
  roomName: string;
  live: boolean;
  /** The stream's latest thumbnail, shown until the video plays. */
  posterUrl?: string | null;
  /** Said while the live video is not playing (default: connecting, or the stream starts soon). */
  waitingText?: string;
  /** Show the waiting notice over the video even while it plays (the host knows the source left). */
  forceWaiting?: boolean;
  children?: ReactNode;
}) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const { status, path, engine } = useLivePlayer(roomName, videoRef, true);
  const { muted, toggle: toggleSound } = useSound(videoRef);
  const playing = status === 'playing' && !forceWaiting;

  return (
    <div className="relative grid gap-3">
      <div className="relative aspect-video w-full overflow-hidden rounded-xl bg-black">
        <LiveVideo
          roomName={roomName}
          videoRef={videoRef}
          className="size-full object-contain"
          poster={posterUrl}
          data={{ path, engine }}
        />
        {!playing ? <PlayerWaiting status={status} text={waitingText ?? waitingTextFor(live)} /> : null}
        {playing ? (
          <Button
            variant={muted ? 'default' : 'secondary'}
            size="sm"
            className="absolute bottom-3 left-3"
            onClick={toggleSound}
            aria-pressed={!muted}
            data-testid="unmute"
          >
            {muted ? <VolumeX aria-hidden="true" /> : <Volume2 aria-hidden="true" />}
            {muted ? 'Unmute' : 'Mute'}
          </Button>
        ) : null}
      </div>
      {children}
    </div>
  );
}
