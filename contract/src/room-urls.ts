/**
 * A room's name and the addresses built from it. No zod here: the page's entry script imports
 * this to open a room's connections before the app's code has loaded.
 */

/** What a room name looks like (the server makes them: a slug of the title and a suffix). */
export const ROOM_NAME_PATTERN = /^[a-z0-9-]{3,80}$/;

/** The room name in a room page's address (/room/{name}), or null for any other address. */
export function roomNameFromPath(pathname: string): string | null {
  const name = /^\/room\/([^/]+)\/?$/.exec(pathname)?.[1];
  return name !== undefined && ROOM_NAME_PATTERN.test(name) ? name : null;
}

/** GET: the room's stream. */
export const streamApiPath = (roomName: string) => `/api/streams/${encodeURIComponent(roomName)}`;

/** The viewers' live video socket (see MediaControl in live.ts). */
export const mediaSocketPath = (roomName: string) => `/ws/media?room=${encodeURIComponent(roomName)}`;
