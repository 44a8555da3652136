import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Storage } from '../../../platform/storage.ts';
import { cachedDemoMedia, ensureDemoClip, runFfmpeg } from '../ingest/demo-clip.ts';
import { hlsKey } from '../pipeline/hls-recorder.ts';
import { parsePlaylist, renderPlaylist } from '../pipeline/playlist.ts';
import { grabThumbnail } from '../pipeline/thumbnail.ts';

/** The thumbnail's file beside the cached segments. */
const THUMBNAIL = 'thumbnail.jpg';

export interface DemoReplay {
  roomName: string;
  seconds: number;
  thumbnail: string;
}

/**
 * The demo replay's video, made once per storage: the demo's show (ingest/demo-clip.ts, 854×480)
 * cut by ffmpeg into the same 1 s fMP4 HLS segments a live stream leaves, with
 * a closed playlist and a thumbnail. Skipped when storage has it already. Returns whether it made it.
 */
export async function ensureDemoReplay(
  storage: Storage,
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
  const clip = await ensureDemoClip(ffmpegPath, signal);
  // Cut from the demo's clip, looped, without encoding again (its keyframes are a second apart);
  // once per machine, like the clip.
  const args = [
    ...['-stream_loop', '-1', '-i', clip, '-t', String(demo.seconds), '-c', 'copy'],
    ...['-f', 'hls', '-hls_time', '1', '-hls_segment_type', 'fmp4', '-hls_list_size', '0'],
    ...['-hls_playlist_type', 'vod', '-hls_fmp4_init_filename', 'init.mp4'],
  ];
  const dir = await cachedDemoMedia(args, async (making) => {
    await runFfmpeg(
      ffmpegPath,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
        ...args,
        ...['-hls_segment_filename', path.join(making, 'seg-%05d.m4s'), path.join(making, 'index.m3u8')],
      ],
      { timeout: 120_000, signal },
    );
    const first = parsePlaylist(await readFile(path.join(making, 'index.m3u8'), 'utf8')).segments[0];
    if (!first) throw new Error('ffmpeg made a demo replay without segments');
    const init = await readFile(path.join(making, 'init.mp4'));
    const jpeg = await grabThumbnail(init, await readFile(path.join(making, first.uri)), ffmpegPath);
    await writeFile(path.join(making, THUMBNAIL), jpeg);
  });
  const made = parsePlaylist(await readFile(path.join(dir, 'index.m3u8'), 'utf8'));
  const prefix = 'demo';
  await storage.put(
    hlsKey(demo.roomName, `${prefix}-init.mp4`),
    await readFile(path.join(dir, 'init.mp4')),
    'video/mp4',
  );
  for (const segment of made.segments) {
    const bytes = await readFile(path.join(dir, segment.uri));
    await storage.put(hlsKey(demo.roomName, `${prefix}-${segment.uri}`), bytes, 'video/iso.segment');
  }
  await storage.put(
    hlsKey(demo.roomName, demo.thumbnail),
    await readFile(path.join(dir, THUMBNAIL)),
    'image/jpeg',
  );
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
}
