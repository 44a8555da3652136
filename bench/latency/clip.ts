/**
 * The latency clip: every frame shows its number as block barcodes (12 bits, each also inverted),
 * piped through ffmpeg into a Y4M file the fake camera plays. The loop is 20 s (600 frames,
 * 207 MB): the numbers repeat every 20 s, so a viewer up to 19 s behind (HLS) is still matched to
 * the right showing (analysis.ts, MATCH_WINDOW_MS).
 */

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { statSync } from 'node:fs';

export const CLIP = { width: 640, height: 360, fps: 30, loopSec: 20, bits: 12, cols: 6, rows: 4 } as const;
export const CLIP_FRAMES = CLIP.fps * CLIP.loopSec;
export const LOOP_MS = CLIP.loopSec * 1000;
export const Y_BLACK = 16;
export const Y_WHITE = 235;
export const MIN_CONTRAST = 80;

/** Cell k of the grid is bit k (k < bits) or bit k − bits inverted. */
export function cellIsWhite(frame: number, cell: number): boolean {
  const bit = (frame >> (cell % CLIP.bits)) & 1;
  return cell < CLIP.bits ? bit === 1 : bit === 0;
}

export function yuvFrame(frame: number): Buffer {
  const { width, height, cols, rows } = CLIP;
  const lumaSize = width * height;
  const buffer = Buffer.alloc(lumaSize * 1.5, 128); // chroma planes: neutral grey
  for (let cell = 0; cell < cols * rows; cell++) {
    const row = Math.floor(cell / cols);
    const col = cell % cols;
    const x0 = Math.floor((col * width) / cols);
    const x1 = Math.floor(((col + 1) * width) / cols);
    const y0 = Math.floor((row * height) / rows);
    const y1 = Math.floor(((row + 1) * height) / rows);
    const luma = cellIsWhite(frame, cell) ? Y_WHITE : Y_BLACK;
    for (let y = y0; y < y1; y++) buffer.fill(luma, y * width + x0, y * width + x1);
  }
  return buffer;
}

export async function makeClip(file: string): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  const { width, height, fps } = CLIP;
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-r', String(fps), '-i', '-'],
      ...['-f', 'yuv4mpegpipe', '-y', file],
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  const exited = once(ffmpeg, 'close') as Promise<[number | null]>;
  const failed = once(ffmpeg, 'error').then(([error]) => {
    throw new Error(`ffmpeg could not be started: ${(error as Error).message}`);
  });
  const write = async () => {
    for (let frame = 0; frame < CLIP_FRAMES; frame++) {
      if (!ffmpeg.stdin.write(yuvFrame(frame))) await once(ffmpeg.stdin, 'drain');
    }
    ffmpeg.stdin.end();
    const [code] = await exited;
    if (code !== 0) throw new Error(`ffmpeg exited with code ${code}`);
  };
  await Promise.race([write(), failed]);
  return { bytes: statSync(file).size, ms: performance.now() - started };
}
