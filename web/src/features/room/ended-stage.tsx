import { useQuery } from '@tanstack/react-query';
import { Film, Loader2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button.tsx';
import { useReplaySource } from '../../lib/video/use-replay-source.ts';
import { streamQueryOptions } from './api.ts';

/** The recording is finalized shortly after the end; stop asking after this long. */
export const VOD_WAIT_MS = 60_000;
const VOD_POLL_MS = 3000;

/** After the stream: the replay when the recording exists, otherwise a clear ended state. */
export function EndedStage({
  roomName,
  onReplayVideo,
}: {
  roomName: string;
  /** Receives the replay's video element (null when it goes), so the chat can follow it. */
  onReplayVideo?: (video: HTMLVideoElement | null) => void;
}) {
  const [gaveUp, setGaveUp] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setGaveUp(true), VOD_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  const { data: stream } = useQuery({
    ...streamQueryOptions(roomName),
    refetchInterval: (query) => (query.state.data?.vodUrl || gaveUp ? false : VOD_POLL_MS),
  });
  const vodUrl = stream?.vodUrl ?? null;
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const engine = useReplaySource(videoRef, vodUrl);
  const setVideo = useCallback(
    (video: HTMLVideoElement | null) => {
      videoRef.current = video;
      onReplayVideo?.(video);
    },
    [onReplayVideo],
  );

  if (vodUrl) {
    return (
      <div className="grid grid-cols-1 gap-2">
        {/* biome-ignore lint/a11y/useMediaCaption: recordings of live streams have no captions. */}
        <video
          ref={setVideo}
          className="aspect-video w-full rounded-xl bg-black"
          poster={stream?.thumbnailUrl ?? undefined}
          controls
          playsInline
          preload="metadata"
          aria-label="Stream replay"
          data-testid="vod-player"
          data-engine={engine}
        />
        <p className="text-muted-foreground text-sm" data-testid="stream-ended">
          This stream has ended. You are watching the replay.
        </p>
      </div>
    );
  }
  return (
    <div
      className="flex aspect-video w-full flex-col items-center justify-center gap-3 rounded-xl border border-border bg-card p-6 text-center"
      data-testid="stream-ended"
    >
      <Film className="size-10 text-muted-foreground" aria-hidden="true" />
      <p className="font-semibold text-xl">This stream has ended</p>
      {gaveUp ? (
        <p className="text-muted-foreground text-sm">No replay is available for this stream.</p>
      ) : (
        <p className="flex items-center gap-2 text-muted-foreground text-sm" role="status">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Preparing the replay…
        </p>
      )}
      <Link to="/explore" className={buttonClasses({ variant: 'outline', className: 'mt-2' })}>
        Browse live streams
      </Link>
    </div>
  );
}
