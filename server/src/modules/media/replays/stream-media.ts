import type { Storage } from '../../../platform/storage.ts';
import { hlsKey } from '../pipeline/stored-parts.ts';

/** The storage folder of everything kept of a stream's video (ends in "/"). */
export const streamMediaFolder = (roomName: string) => hlsKey(roomName, '');

/**
 * Removes everything stored of a stream's video (segments, playlists, the replay, thumbnails): a
 * deleted account's streams. Safe to repeat; answers how many objects went.
 */
export async function removeStreamMedia(storage: Storage, roomName: string): Promise<number> {
  const keys = await storage.list(streamMediaFolder(roomName));
  await storage.deleteMany(keys);
  return keys.length;
}
