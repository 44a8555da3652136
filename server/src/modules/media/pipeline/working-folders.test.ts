import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS, removeAbandonedPartFolders } from './working-folders.ts';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A part folder as ffmpeg leaves it (a segment and its playlist), last written `ageMs` ago. */
function partFolder(stagingDir: string, room: string, id: string, ageMs: number): string {
  const dir = path.join(stagingDir, room, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'seg-00007.m4s'), 'segment');
  writeFileSync(path.join(dir, 'index.m3u8'), '#EXTM3U\n');
  const when = new Date(Date.now() - ageMs);
  utimesSync(dir, when, when);
  return dir;
}

describe('working folders after a crash', () => {
  it('removes part folders no ffmpeg has written for ten minutes, and nothing else', async () => {
    root = mkdtempSync(path.join(tmpdir(), 'ss-staging-'));
    const staging = root;
    const abandoned = partFolder(staging, 'room-a', 'mg3k2x1a0123456789ab', ABANDONED_AFTER_MS + 60_000);
    const alsoAbandoned = partFolder(staging, 'room-b', 'mg3k2x1bfedcba987654', 2 * ABANDONED_AFTER_MS);
    const live = partFolder(staging, 'room-a', 'mg3k2y9z0123456789ab', 2_000);
    // Not a part's folder: the demo's clip (reused for months) and an unrelated folder stay.
    const clip = path.join(staging, 'demo-clip');
    mkdirSync(clip);
    writeFileSync(path.join(clip, 'clip.mkv'), 'clip');
    utimesSync(clip, new Date(0), new Date(0));
    const other = partFolder(staging, 'room-a', 'not-a-part', ABANDONED_AFTER_MS * 3);

    const removed = await removeAbandonedPartFolders(staging);

    expect(removed.sort()).toEqual([abandoned, alsoAbandoned].sort());
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(alsoAbandoned)).toBe(false);
    expect(existsSync(path.join(live, 'seg-00007.m4s'))).toBe(true);
    expect(existsSync(path.join(clip, 'clip.mkv'))).toBe(true);
    expect(existsSync(other)).toBe(true);
    // Again: nothing more to do; and a working folder that is not there yet is no error.
    expect(await removeAbandonedPartFolders(staging)).toEqual([]);
    expect(await removeAbandonedPartFolders(path.join(staging, 'never-made'))).toEqual([]);
  });
});
