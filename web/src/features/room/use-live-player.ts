import { type RefObject, useEffect, useRef, useState } from 'react';
import { type DeliveryPath, initialPath, mediaSourceConstructor } from '../../lib/video/delivery-path.ts';
import type { HlsEngine } from '../../lib/video/hls-source.ts';
import { HlsLivePlayer } from './hls-live-player.ts';
import { LivePlayer, type PlayerStatus } from './media-player.ts';
import { shellPlayerStatus, takeShellPlayer } from './shell-player.ts';

export interface LivePlayback {
  status: PlayerStatus;
  path: DeliveryPath;
  /** On the HLS path: the browser's own player or hls.js. */
  engine: HlsEngine | undefined;
}

/**
 * Plays the room's live video into `videoRef` while `enabled`, on the WebSocket path or HLS,
 * switching to the other path (without a reload) when the first cannot play here. Closes
 * everything on unmount.
 */
export function useLivePlayer(
  roomName: string,
  videoRef: RefObject<HTMLVideoElement | null>,
  enabled: boolean,
): LivePlayback {
  // No window while the room shell's preview is rendered at build time.
  const [start] = useState(() =>
    initialPath(
      typeof window === 'undefined' ? '' : window.location.search,
      mediaSourceConstructor() !== null,
    ),
  );
  const [path, setPath] = useState<DeliveryPath>(start.path);
  const [engine, setEngine] = useState<HlsEngine | undefined>(undefined);
  // The room shell's player may be playing already (shell-player.ts): no "Connecting" flash.
  const [status, setStatus] = useState<PlayerStatus>(() =>
    start.path === 'ws' ? shellPlayerStatus(roomName) : 'waiting',
  );
  /** Paths that could not play here: never tried again on this page. */
  const failed = useRef(new Set<DeliveryPath>());

  useEffect(() => {
    const video = videoRef.current;
    if (!enabled || !video) return;
    const onStatus = (next: PlayerStatus) => {
      if (next === 'unsupported') {
        const other: DeliveryPath = path === 'ws' ? 'hls' : 'ws';
        failed.current.add(path);
        if (!failed.current.has(other) && (other === 'hls' || mediaSourceConstructor())) {
          setStatus('waiting');
          setPath(other);
          return;
        }
      }
      setStatus(next);
    };
    if (path === 'ws') {
      // The room shell's player, when it plays into this very element, plays on.
      const taken = takeShellPlayer(roomName, video, onStatus);
      const player = taken ?? new LivePlayer(roomName, video, onStatus);
      if (!taken) player.start();
      return () => player.destroy();
    }
    const player = new HlsLivePlayer(roomName, video, onStatus, start.engine, setEngine);
    player.start();
    return () => player.destroy();
  }, [roomName, videoRef, enabled, path, start.engine]);

  return { status, path, engine: path === 'hls' ? engine : undefined };
}
