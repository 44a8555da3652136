import { Play } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../../lib/cn.ts';

/** Made at build time by web/scripts/make-feature-video.mjs from the project's own frames. */
export const FEATURE_VIDEO_URL = '/video/feature.webm';
export const FEATURE_POSTER_URL = '/video/feature-poster.svg';

/**
 * The feature video: a thumbnail with a play button that becomes an autoplaying player on click.
 * If the clip is missing (the build had no ffmpeg) the poster stays and says so.
 */
export function FeatureVideo({ title, className }: { title: string; className?: string }) {
  const [playing, setPlaying] = useState(false);
  const [failed, setFailed] = useState(false);
  return (
    <div
      className={cn(
        'relative aspect-video overflow-hidden rounded-2xl border border-border bg-black',
        className,
      )}
      data-testid="feature-video"
    >
      {playing && !failed ? (
        <video
          className="size-full"
          src={FEATURE_VIDEO_URL}
          poster={FEATURE_POSTER_URL}
          autoPlay
          muted
          loop
          playsInline
          controls
          onError={() => setFailed(true)}
          data-testid="feature-video-player"
        >
          <track kind="captions" />
        </video>
      ) : (
        <button
          type="button"
          onClick={() => setPlaying(true)}
          disabled={failed}
          aria-label={`Play video: ${title}`}
          className="group relative block size-full cursor-pointer disabled:cursor-default"
          data-testid="feature-video-thumbnail"
        >
          <img
            src={FEATURE_POSTER_URL}
            alt=""
            width={1280}
            height={720}
            loading="lazy"
            decoding="async"
            className="size-full object-cover"
          />
          {failed ? (
            <span className="absolute inset-x-0 bottom-0 bg-black/70 p-3 text-center text-muted-foreground text-sm">
              The video is not available right now.
            </span>
          ) : (
            <span className="absolute inset-0 flex items-center justify-center bg-black/20 transition-colors group-hover:bg-black/10">
              <span className="flex size-14 items-center justify-center rounded-full bg-white/90 sm:size-20 text-black shadow-2xl transition-transform group-hover:scale-110">
                <Play className="ml-1 size-7 fill-current sm:size-9" aria-hidden="true" />
              </span>
            </span>
          )}
        </button>
      )}
    </div>
  );
}
