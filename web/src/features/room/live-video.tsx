import { type RefObject, useLayoutEffect, useRef } from 'react';
import { mark } from './media-player.ts';
import { createLiveVideo, shellVideo } from './shell-player.ts';

/**
 * The room's live <video>, muted autoplay inline. Its element is not React's: on a room page the
 * room shell's preview may already be playing the stream into one (shell-player.ts), and this
 * takes that very element into its place (moved in the same commit that replaces the preview, so
 * it plays on), or makes a new one. `videoRef` points at it while mounted, for the player and
 * the sound button. In the room shell's preview (rendered at build time) it is the empty place
 * the entry script puts the video in, with the video's class in data-video-class.
 */
export function LiveVideo({
  roomName,
  videoRef,
  className,
  poster,
  data,
  onClick,
  onSizeChange,
}: {
  roomName: string;
  videoRef: RefObject<HTMLVideoElement | null>;
  className: string;
  poster?: string | null | undefined;
  /** data-* attributes (data-path, data-engine, …), by name without the prefix. */
  data: Record<string, string | undefined>;
  onClick?: () => void;
  /** When the video's picture size is known or changes. */
  onSizeChange?: (video: HTMLVideoElement) => void;
}) {
  const slotRef = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onClick, onSizeChange });
  handlers.current = { onClick, onSizeChange };

  useLayoutEffect(() => {
    const slot = slotRef.current;
    if (!slot) return;
    const fromShell = shellVideo(roomName);
    const video = fromShell ?? createLiveVideo();
    slot.append(video);
    if (fromShell) mark('adopted');
    // Moved within one task a playing element plays on; one the app had taken out of the page
    // for a while (its spinner first) was paused.
    if (fromShell?.paused) fromShell.play().catch(() => {});
    videoRef.current = video;
    const click = () => handlers.current.onClick?.();
    const resize = () => handlers.current.onSizeChange?.(video);
    video.addEventListener('click', click);
    video.addEventListener('loadedmetadata', resize);
    video.addEventListener('resize', resize);
    if (video.videoWidth) resize();
    return () => {
      video.removeEventListener('click', click);
      video.removeEventListener('loadedmetadata', resize);
      video.removeEventListener('resize', resize);
      video.remove();
      if (videoRef.current === video) videoRef.current = null;
    };
  }, [roomName, videoRef]);

  useLayoutEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.className = className;
    if (poster) video.poster = poster;
    else video.removeAttribute('poster');
    for (const [name, value] of Object.entries(data)) {
      if (value === undefined) delete video.dataset[name];
      else video.dataset[name] = value;
    }
  });

  return <div ref={slotRef} className="contents" data-live-video-slot="" data-video-class={className} />;
}
