import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** A part's working folder is named by its id: its start time in base 36 and 48 random bits (pipeline.ts). */
const PART_ID = /^[0-9a-z]{8,9}[0-9a-f]{12}$/;

/**
 * ffmpeg writes a segment into a running part's folder every second, and the recorder takes it
 * out: a folder nobody has written for this long belongs to a run that is gone (its instance was
 * killed) and is never read again.
 */
export const ABANDONED_AFTER_MS = 10 * 60_000;

async function entriesOf(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Removes the part folders under the working folder (`<room>/<part id>/`) that no ffmpeg has
 * written for ABANDONED_AFTER_MS: what a killed instance left there. Safe with several instances
 * on one DATA_DIR (a live part's folder changes every second). Answers the folders removed.
 */
export async function removeAbandonedPartFolders(stagingDir: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const room of await entriesOf(stagingDir)) {
    if (!room.isDirectory()) continue;
    const roomDir = path.join(stagingDir, room.name);
    for (const part of await entriesOf(roomDir)) {
      if (!part.isDirectory() || !PART_ID.test(part.name)) continue;
      const dir = path.join(roomDir, part.name);
      const info = await stat(dir).catch(() => undefined);
      if (!info || now - info.mtimeMs < ABANDONED_AFTER_MS) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    }
  }
  return removed;
}
