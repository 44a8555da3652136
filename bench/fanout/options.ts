/** The fan-out bench's flags (`--name=value`) and their bounds. */

import { cliFlags } from '../support.ts';

export interface Options {
  /** Each count is measured on the app's server and on the floor, one after the other. */
  viewers: number[];
  /** The measured window of each count (s). */
  seconds: number;
  /** After the viewers joined, before the window (s). */
  warmup: number;
  /** How much of the stream the floor replays (s; whole groups of it). */
  record: number;
  /** The encoder's video bitrate (kbit/s): the free plan's 1,500 by default (PLAN_VIDEO). */
  videoKbps: number;
  /** Child processes the viewers are spread over. */
  groups: number;
  /** The slow viewer's reading rate (kbit/s). */
  slowKbps: number;
  /** The normal viewers beside it (0: no slow-viewer phase). */
  slowNormal: number;
  /** How long the slow viewer may read before the window with it starts, at most (s): until the server first skips it. */
  slowFill: number;
  maxSeconds: number;
}

export function parseOptions(argv: string[]): Options {
  const { value, number } = cliFlags(argv);
  const list = value('viewers') ?? '0,100,300,1000';
  const viewers = list.split(',').map((v) => Number(v.replaceAll('_', '')));
  if (!viewers.length || viewers.some((n) => !Number.isInteger(n) || n < 0 || n > 5000))
    throw new Error(`--viewers must be counts from 0 to 5000, comma-separated, got "${list}"`);
  return {
    viewers,
    seconds: number('seconds', 10, 2, 120),
    warmup: number('warmup', 3, 0, 60),
    record: number('record', 6, 3, 30),
    videoKbps: number('video-kbps', 1500, 200, 10_000),
    groups: number('groups', 2, 1, 16),
    slowKbps: number('slow-kbps', 256, 8, 100_000),
    slowNormal: number('slow-normal', 100, 0, 5000),
    slowFill: number('slow-fill', 40, 0, 300),
    maxSeconds: number('max-seconds', 290, 30, 3600),
  };
}
