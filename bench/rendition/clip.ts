/**
 * The source clip: what a Pro seller's encoder (OBS over RTMP) sends, as FLV: 1080p30 H.264 High
 * (x264 veryfast, 2 B-frames, a keyframe every second, 6 Mbit/s CBR) and AAC 128 kbit/s, made by
 * ffmpeg from `testsrc2` (moving shapes and a counter) with temporal grain over it, so that it
 * costs what a camera costs to decode and encode (a clean synthetic picture would be nearly free).
 * Read back as the FLV init (header, metadata and sequence headers) and the media tags after it.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { FlvReader, FlvTagType, isAacSequenceHeader, videoTagInfo } from '../../server/src/test/support.ts';
import { SOURCE } from './options.ts';

export interface ClipTag {
  type: number;
  /** Milliseconds: the decode time, as FLV carries it. */
  timestamp: number;
  data: Buffer;
  /** An H.264 keyframe (not a sequence header). */
  keyframe: boolean;
}

export interface Clip {
  file: string;
  bytes: number;
  generateMs: number;
  /** Everything before the first frame: the FLV header, onMetaData and both sequence headers. */
  init: Buffer;
  tags: ClipTag[];
  /** The loop's length: tags of the n-th pass are fed `n × loopMs` later. */
  loopMs: number;
  videoFrames: number;
  keyframes: number;
}

/** The ffmpeg that makes the clip; `track` lets the run kill it on the hard cap. */
export async function makeClip(file: string, track: (child: ChildProcess) => () => void): Promise<Clip> {
  const started = performance.now();
  const { width, height, fps, kbps, audioKbps, seconds } = SOURCE;
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:beep_factor=4:sample_rate=48000'],
      ...['-t', String(seconds), '-vf', 'noise=alls=10:allf=t+u,format=yuv420p'],
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-bf', '2'],
      ...['-b:v', `${kbps}k`, '-maxrate', `${kbps}k`, '-bufsize', `${kbps}k`],
      ...['-g', String(fps), '-keyint_min', String(fps), '-sc_threshold', '0'],
      ...['-c:a', 'aac', '-b:a', `${audioKbps}k`, '-ac', '2', '-f', 'flv', file],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const untrack = track(ffmpeg);
  let stderr = '';
  ffmpeg.stderr.on('data', (data: Buffer) => {
    stderr = (stderr + data.toString()).slice(-2000);
  });
  try {
    const [code] = (await Promise.race([
      once(ffmpeg, 'close'),
      once(ffmpeg, 'error').then(([error]) => {
        throw new Error(`ffmpeg could not be started: ${(error as Error).message}`);
      }),
    ])) as [number | null];
    if (code !== 0) throw new Error(`making the clip: ffmpeg exited with ${code}: ${stderr.trim()}`);
  } finally {
    untrack();
  }
  return { ...readClip(file), file, generateMs: performance.now() - started };
}

function readClip(file: string): Omit<Clip, 'file' | 'generateMs'> {
  const bytes = readFileSync(file);
  const init: Buffer[] = [];
  const tags: ClipTag[] = [];
  for (const item of new FlvReader().push(bytes)) {
    if (item.kind === 'header') {
      init.push(item.bytes);
      continue;
    }
    const video = item.type === FlvTagType.video ? videoTagInfo(item.data) : undefined;
    const sequenceHeader =
      item.type === FlvTagType.scriptData ||
      (video !== undefined && video.avcPacketType === 0) ||
      (item.type === FlvTagType.audio && isAacSequenceHeader(item.data));
    if (sequenceHeader) {
      if (tags.length) throw new Error('the clip has a sequence header after its first frame');
      init.push(item.bytes);
      continue;
    }
    tags.push({
      type: item.type,
      timestamp: item.timestamp,
      data: item.data,
      keyframe: video?.frameType === 1 && video.avcPacketType === 1,
    });
  }
  const frames = tags.filter((t) => t.type === FlvTagType.video);
  if (!frames[0]?.keyframe) throw new Error('the clip does not start with a keyframe');
  return {
    bytes: bytes.length,
    init: Buffer.concat(init),
    tags,
    loopMs: SOURCE.seconds * 1000,
    videoFrames: frames.length,
    keyframes: frames.filter((t) => t.keyframe).length,
  };
}
