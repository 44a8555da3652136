/** The rendition bench's flags (`--name=value`), their bounds, and the rows it can measure. */
import { cliFlags } from '../support.ts';

/**
 * A lower rendition encoded beside the copied original: its picture, bit rate and x264 preset;
 * preset `none` decodes and scales but encodes nothing (the floor every preset pays).
 */
export interface Rendition {
  width: number;
  height: number;
  kbps: number;
  preset: 'none' | 'ultrafast' | 'superfast' | 'veryfast';
}

/** One measured configuration of the pipeline's ffmpeg; `rendition` undefined is today's copy. */
export interface Row {
  key: string;
  label: string;
  rendition: Rendition | undefined;
}

export const ROWS: Row[] = [
  { key: 'copy', label: '1080p copy (today)', rendition: undefined },
  {
    key: 'decode-only',
    label: '+ decode and scale to 480p, no encode',
    rendition: { width: 854, height: 480, kbps: 0, preset: 'none' },
  },
  {
    key: '480-ultrafast',
    label: '+ 480p ultrafast',
    rendition: { width: 854, height: 480, kbps: 1200, preset: 'ultrafast' },
  },
  {
    key: '480-superfast',
    label: '+ 480p superfast',
    rendition: { width: 854, height: 480, kbps: 1200, preset: 'superfast' },
  },
  {
    key: '480-veryfast',
    label: '+ 480p veryfast',
    rendition: { width: 854, height: 480, kbps: 1200, preset: 'veryfast' },
  },
  {
    key: '720-veryfast',
    label: '+ 720p veryfast',
    rendition: { width: 1280, height: 720, kbps: 2500, preset: 'veryfast' },
  },
];

/** The source: what a Pro seller's encoder sends at most (ADR 0011: Pro up to 1080p, ≈6 Mbit/s). */
export const SOURCE = {
  width: 1920,
  height: 1080,
  fps: 30,
  kbps: 6000,
  audioKbps: 128,
  /**
   * The clip's length: a whole number of video frames (1/30 s) and of AAC frames (1024 samples
   * at 48 kHz, 21⅓ ms), so its loop joins with no timestamp overlap (any multiple of 8 s).
   */
  seconds: 24,
} as const;

/** The server restarts a pipeline whose unwritten input passes this (pipeline.ts). */
export const SERVER_BACKLOG_LIMIT_BYTES = 8 * 1024 * 1024;
/** A live row keeps up when its output advances at least this fast (the rest is sampling). */
export const REAL_TIME_MIN = 0.98;

export interface Options {
  seconds: number;
  warmup: number;
  rows: Row[];
  parallel: number;
  batchSeconds: number;
  maxSeconds: number;
}

export const DEFAULTS = { seconds: 30, warmup: 5, parallel: 1, batchSeconds: 20, maxSeconds: 600 } as const;

export function parseOptions(argv: string[]): Options {
  const { value, number } = cliFlags(argv);
  const only = value('only');
  const keys = only ? only.split(',').map((k) => k.trim()) : ROWS.map((r) => r.key);
  const unknown = keys.filter((k) => !ROWS.some((r) => r.key === k));
  if (unknown.length || keys.length === 0)
    throw new Error(`--only takes rows from ${ROWS.map((r) => r.key).join(', ')}; got "${only}"`);
  return {
    seconds: number('seconds', DEFAULTS.seconds, 10, 120),
    warmup: number('warmup', DEFAULTS.warmup, 2, 30),
    rows: ROWS.filter((r) => keys.includes(r.key)),
    parallel: number('parallel', DEFAULTS.parallel, 1, 8),
    batchSeconds: number('batch-seconds', DEFAULTS.batchSeconds, 0, 120),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 60, 3600),
  };
}
