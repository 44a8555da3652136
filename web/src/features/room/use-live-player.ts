import { type RefObject, useEffect, useState } from 'react';
import { LivePlayer, type PlayerStatus } from './media-player.ts';

/** Plays the room's live video into `videoRef` while `enabled`; closes everything on unmount. */
export function useLivePlayer(
  roomName: string,
  videoRef: RefObject<HTMLVideoElement | null>,
  enabled: boolean,
): PlayerStatus {
  const [status, setStatus] = useState<PlayerStatus>('waiting');
  useEffect(() => {
    const video = videoRef.current;
    if (!enabled || !video) return;
    const player = new LivePlayer(roomName, video, setStatus);
    player.start();
    return () => player.destroy();
  }, [roomName, videoRef, enabled]);
  return status;
}
