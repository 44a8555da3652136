import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FLV_SOURCE, splitterFor } from './mime-types.ts';
import { type InitKind, videoSizeOf } from './video-size.ts';

const execFileAsync = promisify(execFile);

const MIME: Record<InitKind, string> = { webm: 'video/webm', mp4: 'video/mp4', flv: FLV_SOURCE };

/** The init event the publisher's splitter makes of `bytes` (what the server checks). */
function initOf(bytes: Buffer, kind: InitKind): Buffer {
  const init = splitterFor(MIME[kind])
    .push(bytes)
    .find((event) => event.kind === 'init');
  if (init?.kind !== 'init') throw new Error('no init');
  return init.bytes;
}

/** One second of ffmpeg's test picture at `size`, in `format`. */
async function encode(size: string, args: string[]): Promise<Buffer> {
  const { stdout } = await execFileAsync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-t', '1'],
      ...args,
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

describe('videoSizeOf', () => {
  const cases: { name: string; kind: InitKind; args: string[] }[] = [
    {
      name: 'FLV (H.264/AAC, as an RTMP encoder sends)',
      kind: 'flv',
      args: [...H264, '-c:a', 'aac', '-f', 'flv'],
    },
    {
      name: 'FLV without onMetaData (the SPS alone)',
      kind: 'flv',
      args: [...H264, '-c:a', 'aac', '-flvflags', 'no_metadata', '-f', 'flv'],
    },
    {
      name: 'WebM (VP8/Opus)',
      kind: 'webm',
      args: ['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus', '-f', 'webm'],
    },
    { name: 'Matroska (H.264)', kind: 'webm', args: [...H264, '-c:a', 'libopus', '-f', 'matroska'] },
    {
      name: 'fragmented MP4 (H.264/AAC)',
      kind: 'mp4',
      args: [...H264, '-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4'],
    },
  ];
  for (const { name, kind, args } of cases) {
    it(`reads ${name}`, async () => {
      for (const [width, height] of [
        [1280, 720],
        [854, 480],
        [480, 854],
      ] as const) {
        const init = initOf(await encode(`${width}x${height}`, args), kind);
        expect(videoSizeOf(init, kind)).toEqual({ width, height });
      }
    }, 30_000);
  }

  it('reads the MediaRecorder fixtures', () => {
    const fixture = (file: string) => readFileSync(new URL(`./fixtures/${file}`, import.meta.url));
    expect(videoSizeOf(initOf(fixture('mediarecorder-vp8-opus.webm'), 'webm'), 'webm')).toEqual({
      width: 320,
      height: 240,
    });
    expect(videoSizeOf(initOf(fixture('mediarecorder-h264-opus.webm'), 'webm'), 'webm')).toEqual({
      width: 640,
      height: 480,
    });
  });

  it('says nothing of bytes it cannot read', () => {
    expect(videoSizeOf(Buffer.from('not a video at all'), 'webm')).toBeUndefined();
    expect(videoSizeOf(Buffer.from('not a video at all'), 'mp4')).toBeUndefined();
    expect(videoSizeOf(Buffer.from('FLV garbage'), 'flv')).toBeUndefined();
    expect(videoSizeOf(Buffer.alloc(0), 'flv')).toBeUndefined();
  });
});
