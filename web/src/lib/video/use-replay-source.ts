import { type RefObject, useEffect, useState } from 'react';
import { attachHls, type HlsEngine } from './hls-source.ts';

/**
 * Plays a recording in `videoRef`: an HLS replay (`.m3u8`) natively or with hls.js, anything
 * else (older WebM replays) as the video's src. Returns the engine once it plays HLS.
 */
export function useReplaySource(
  videoRef: RefObject<HTMLVideoElement | null>,
  url: string | null,
): HlsEngine | 'file' | undefined {
  const [engine, setEngine] = useState<HlsEngine | 'file' | undefined>(undefined);
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !url) return;
    if (!url.endsWith('.m3u8')) {
      video.src = url;
      setEngine('file');
      return () => {
        video.removeAttribute('src');
      };
    }
    let destroyed = false;
    let destroy: (() => void) | undefined;
    void attachHls(video, url, { live: false }).then((source) => {
      if (destroyed) source?.destroy();
      else if (source) {
        destroy = source.destroy;
        setEngine(source.engine);
      }
    });
    return () => {
      destroyed = true;
      destroy?.();
    };
  }, [videoRef, url]);
  return engine;
}
