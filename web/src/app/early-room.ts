import { mediaSocketPath, roomNameFromPath, streamApiPath } from '@streamshop/contract/room-urls.ts';
import { openEarlySocket, startEarlyGet } from '../lib/early-requests.ts';
import { initialPath, mediaSourceConstructor } from '../lib/video/delivery-path.ts';

/** The room page's code (the route table loads it through this too). */
export const loadRoomPage = () => import('../features/room/room-page.tsx');

/**
 * On the way to a room page (/room/{name}): loads the page's code, asks for the room's stream
 * and, with `video`, opens its live video socket now, so the page finds all three on their way
 * (a late joiner's first frame waits on none of them in turn; docs/decisions/0012). Any other
 * address: nothing.
 */
export function startRoomRequests(pathname: string, { video }: { video: boolean }): void {
  const name = roomNameFromPath(pathname);
  if (!name) return;
  void loadRoomPage().catch(() => {
    // The router asks again, and shows its error page if that fails too.
  });
  startEarlyGet(streamApiPath(name));
  // Only where the player will start on the WebSocket (an HLS viewer would never take it).
  const path = initialPath(window.location.search, mediaSourceConstructor() !== null).path;
  if (video && path === 'ws') openEarlySocket(mediaSocketPath(name));
}
