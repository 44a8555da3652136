import { mediaSocketPath, roomNameFromPath, streamApiPath } from '@streamshop/contract/room-urls.ts';
import { openEarlySocket, startEarlyGet } from '../lib/early-requests.ts';
import { initialPath, mediaSourceConstructor } from '../lib/video/delivery-path.ts';

/** The room shell's preview of the room (web/scripts/prerender.mjs writes it into #root). */
export const ROOM_SHELL_PREVIEW = '[data-room-shell]';
/** The preview's place for the live video (LiveVideo's slot; see shell-player.ts). */
const LIVE_VIDEO_SLOT = `${ROOM_SHELL_PREVIEW} [data-live-video-slot]`;

/**
 * On the room shell, the app's code and the room's queries wait this long at most for the video
 * to start playing in the preview (they would compete with it for the connection, the server and
 * the main thread).
 */
export const VIDEO_HEAD_START_MS = 800;

/** The room page's code (the route table loads it through this too). */
export const loadRoomPage = () => import('../features/room/room-page.tsx');

/**
 * On the way to a room page (/room/{name}): loads the page's code, asks for the room's stream
 * and, with `video`, opens its live video socket now, so the page finds all three on their way
 * (a late joiner's first frame waits on none of them in turn; docs/decisions/0012). Any other
 * address: nothing.
 *
 * On the room shell (the page as the server sent it, with a preview of the room) the video goes
 * first (docs/decisions/0027): the preview starts playing it, and the page's code and stream are
 * asked for once it plays, or VIDEO_HEAD_START_MS after it started. The promise resolves then
 * (at once elsewhere): the entry script loads the app after it.
 */
export function startRoomRequests(pathname: string, { video }: { video: boolean }): Promise<void> {
  const name = roomNameFromPath(pathname);
  if (!name) return Promise.resolve();
  // Only where the player will start on the WebSocket (an HLS viewer would never take it).
  const path = initialPath(window.location.search, mediaSourceConstructor() !== null).path;
  const onWebSocket = video && path === 'ws';
  if (onWebSocket) openEarlySocket(mediaSocketPath(name));
  const slot = onWebSocket ? document.querySelector<HTMLElement>(LIVE_VIDEO_SLOT) : null;
  const videoFirst = slot ? startShellVideo(name, slot) : Promise.resolve();
  return videoFirst.then(() => {
    startEarlyGet(streamApiPath(name));
    void loadRoomPage().catch(() => {
      // The router asks again, and shows its error page if that fails too.
    });
  });
}

/** Plays the room's video in the preview; resolves once it plays, or after the head start. */
function startShellVideo(name: string, slot: HTMLElement): Promise<void> {
  return import('../features/room/shell-player.ts')
    .then(({ startShellPlayer, shellVideoStarted }) => {
      startShellPlayer(name, slot);
      return shellVideoStarted(VIDEO_HEAD_START_MS);
    })
    .catch(() => {
      // The app starts the room's own player.
    });
}
