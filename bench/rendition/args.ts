/**
 * The ffmpeg arguments of each row. The copy row is the server's own (`pipelineArgs(true)` of
 * server/src/modules/media/pipeline/pipeline.ts: H.264 copied, audio to AAC, the tee muxer writing fMP4 on
 * stdout for the WebSocket path and HLS into the working folder). A rendition row is the same
 * process with one more video stream: the input decoded, scaled and encoded by libx264, written
 * with the same audio as a second HLS playlist in `low/` (preset `none`: decoded and scaled into
 * the null muxer, no encoder); the live and HLS muxer options are taken from the server's
 * arguments, so the 1080p outputs are exactly today's.
 */

import { pipelineArgs } from '../../server/src/test/support.ts';
import type { Rendition } from './options.ts';

/** The low rendition's folder, under the working folder. */
export const LOW_DIR = 'low';

/** ffmpeg's progress (out_time_us, frame, speed…) on stderr every half second. */
const PROGRESS = ['-progress', 'pipe:2', '-stats_period', '0.5'];

function serverTee(): { live: string; hls: string } {
  const args = pipelineArgs(true);
  const tee = args.at(-1) ?? '';
  const match = /^\[([^\]]+)\]pipe:1\|\[([^\]]+)\]index\.m3u8$/.exec(tee);
  if (args.at(-2) !== 'tee' || !match?.[1] || !match[2])
    throw new Error(
      `the server's pipeline arguments changed shape (tee output "${tee}"): update bench/rendition/args.ts`,
    );
  if (!match[2].includes('hls_segment_filename=seg-%05d.m4s'))
    throw new Error(`the server's HLS segment names changed ("${match[2]}"): update bench/rendition/args.ts`);
  return { live: match[1], hls: match[2] };
}

export function ffmpegArgs(rendition: Rendition | undefined): string[] {
  if (!rendition) return [...PROGRESS, ...pipelineArgs(true)];
  const { live, hls } = serverTee();
  const lowHls = hls.replace(
    'hls_segment_filename=seg-%05d.m4s',
    `hls_segment_filename=${LOW_DIR}/seg-%05d.m4s`,
  );
  const { width, height, kbps, preset } = rendition;
  // The tee muxer's select takes stream specifiers; their commas and colons are quoted for it.
  const select = (spec: string) => `select=\\'${spec}\\'`;
  const lowVideo =
    preset === 'none'
      ? // Decoded and scaled frames handed to the null muxer as they are: no encoder.
        { codec: ['-c:v:1', 'wrapped_avframe'], output: `[${select('v:1')}:f=null]-` }
      : {
          codec: [
            // The server's x264 settings for VP8 input (its veryfast as one row), at a fixed bit rate.
            ...[
              '-c:v:1',
              'libx264',
              `-preset:v:1`,
              preset,
              '-tune:v:1',
              'zerolatency',
              '-pix_fmt:v:1',
              'yuv420p',
            ],
            ...['-force_key_frames:v:1', 'expr:gte(t,n_forced*1)', '-fps_mode:v:1', 'passthrough'],
            ...['-b:v:1', `${kbps}k`, '-maxrate:v:1', `${kbps}k`, '-bufsize:v:1', `${kbps}k`],
          ],
          output: `[${select('v:1,a')}:${lowHls}]${LOW_DIR}/index.m3u8`,
        };
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ...PROGRESS,
    ...['-probesize', '32768', '-analyzeduration', '0', '-i', 'pipe:0'],
    ...['-filter_complex', `[0:v:0]scale=${width}:${height}[low]`],
    ...['-map', '0:v:0', '-map', '0:a:0?', '-map', '[low]'],
    ...['-c:v:0', 'copy'],
    ...lowVideo.codec,
    ...['-flags:v', '+global_header'],
    ...['-c:a', 'aac', '-b:a', '128k', '-flags:a', '+global_header'],
    ...['-flush_packets', '1', '-f', 'tee'],
    [`[${select('v:0,a')}:${live}]pipe:1`, `[${select('v:0,a')}:${hls}]index.m3u8`, lowVideo.output].join(
      '|',
    ),
  ];
}
