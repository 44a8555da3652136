/**
 * The live video's delivery paths a viewer is put on, by the room page's `?path=` query: the
 * WebSocket (fMP4 into MediaSource), HLS played by Chromium itself, and HLS through hls.js. The
 * <video data-testid="live-video"> says which it really uses in data-path and data-engine.
 */

import { TARGET, VIEWERS_START_SEC } from './options.ts';

export type PathKey = 'ws' | 'hls' | 'hlsjs';

export interface ViewerPath {
  key: PathKey;
  label: string;
  /** The room page's address suffix that forces the path. */
  query: string;
  /** data-path and data-engine the video should carry ('' for none). */
  expected: { path: string; engine: string };
  /** Median glass-to-glass target. */
  targetP50Ms: number;
  /** How long the first frame may take after the page is opened (HLS waits for its segments). */
  firstFrameTimeoutMs: number;
}

export const VIEWER_PATHS: ViewerPath[] = [
  {
    key: 'ws',
    label: 'WebSocket (MSE)',
    query: '?path=ws',
    expected: { path: 'ws', engine: '' },
    targetP50Ms: TARGET.medianMs,
    firstFrameTimeoutMs: VIEWERS_START_SEC * 1000,
  },
  {
    key: 'hls',
    label: 'HLS native',
    query: '?path=hls',
    expected: { path: 'hls', engine: 'native' },
    targetP50Ms: TARGET.hlsMedianMs,
    firstFrameTimeoutMs: VIEWERS_START_SEC * 1000,
  },
  {
    key: 'hlsjs',
    label: 'HLS hls.js',
    query: '?path=hlsjs',
    expected: { path: 'hls', engine: 'hls.js' },
    targetP50Ms: TARGET.hlsMedianMs,
    firstFrameTimeoutMs: VIEWERS_START_SEC * 1000,
  },
];
