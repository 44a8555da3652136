import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Storage } from '../../../platform/storage.ts';
import { hlsKey } from '../pipeline/hls-recorder.ts';
import { parsePlaylist, renderPlaylist } from '../pipeline/playlist.ts';
import { grabThumbnail } from '../pipeline/thumbnail.ts';

const run = promisify(execFile);

export interface DemoReplay {
  roomName: string;
  seconds: number;
  thumbnail: string;
}

/**
 * The demo replay's video, made once per storage: a generated clip (a moving test picture and a
 * tone, 640×360) encoded by ffmpeg into the same 1 s fMP4 HLS segments a live stream leaves, with
 * a closed playlist and a thumbnail. Skipped when storage has it already. Returns whether it made it.
 */
export async function ensureDemoReplay(
  storage: Storage,
  workRoot: string,
  demo: DemoReplay,
  ffmpegPath = 'ffmpeg',
  /** Aborted when the server stops: ffmpeg is killed, not left running after the process. */
  signal?: AbortSignal,
): Promise<boolean> {
  const existing = await storage.get(hlsKey(demo.roomName, 'index.m3u8'));
  if (existing) {
    existing.body.destroy(); // only whether it is there: the connection goes back to the pool
    return false;
  }
  await mkdir(workRoot, { recursive: true });
  const dir = await mkdtemp(path.join(workRoot, 'demo-'));
  try {
    await run(
      ffmpegPath,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
        ...['-f', 'lavfi', '-i', `testsrc2=s=640x360:r=30:d=${demo.seconds}`],
        ...['-f', 'lavfi', '-i', `sine=frequency=330:beep_factor=2:d=${demo.seconds}`],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '30', '-b:v', '800k'],
        ...['-c:a', 'aac', '-b:a', '96k', '-shortest'],
        ...['-f', 'hls', '-hls_time', '1', '-hls_segment_type', 'fmp4', '-hls_list_size', '0'],
        ...['-hls_playlist_type', 'vod', '-hls_fmp4_init_filename', 'init.mp4'],
        ...['-hls_segment_filename', path.join(dir, 'seg-%05d.m4s'), path.join(dir, 'index.m3u8')],
      ],
      { timeout: 120_000, signal },
    );
    const made = parsePlaylist(await readFile(path.join(dir, 'index.m3u8'), 'utf8'));
    const init = await readFile(path.join(dir, 'init.mp4'));
    const prefix = 'demo';
    await storage.put(hlsKey(demo.roomName, `${prefix}-init.mp4`), init, 'video/mp4');
    for (const segment of made.segments) {
      const bytes = await readFile(path.join(dir, segment.uri));
      await storage.put(hlsKey(demo.roomName, `${prefix}-${segment.uri}`), bytes, 'video/iso.segment');
    }
    const first = made.segments[0];
    if (first) {
      const jpeg = await grabThumbnail(init, await readFile(path.join(dir, first.uri)), ffmpegPath);
      await storage.put(hlsKey(demo.roomName, demo.thumbnail), jpeg, 'image/jpeg');
    }
    // The playlist last: once it is there, the replay is whole.
    const playlist = {
      ended: true,
      segments: made.segments.map((segment) => ({
        ...segment,
        uri: `${prefix}-${segment.uri}`,
        map: `${prefix}-init.mp4`,
        discontinuity: false,
      })),
    };
    await storage.put(
      hlsKey(demo.roomName, 'index.m3u8'),
      Buffer.from(renderPlaylist(playlist)),
      'application/vnd.apple.mpegurl',
    );
    return true;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
