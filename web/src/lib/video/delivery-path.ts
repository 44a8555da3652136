import type { HlsEngine } from './hls-source.ts';

/** The two ways live video reaches a viewer: the low-latency WebSocket, or HLS. */
export type DeliveryPath = 'ws' | 'hls';

type MediaSourceConstructor = typeof MediaSource;

/**
 * The MediaSource to use: the standard one, or ManagedMediaSource where only that exists
 * (iPhone Safari 17.1+). Null when the browser has neither.
 */
export function mediaSourceConstructor(scope: object = globalThis): MediaSourceConstructor | null {
  const found = scope as {
    MediaSource?: MediaSourceConstructor;
    ManagedMediaSource?: MediaSourceConstructor;
  };
  return found.MediaSource ?? found.ManagedMediaSource ?? null;
}

/**
 * Which path to start on: `?path=ws`, `?path=hls` or `?path=hlsjs` in the page's address forces
 * one (for tests and benchmarks); otherwise the WebSocket where MediaSource (or
 * ManagedMediaSource) exists, HLS elsewhere.
 */
export function initialPath(
  search: string,
  hasMediaSource: boolean,
): { path: DeliveryPath; engine?: HlsEngine } {
  const forced = new URLSearchParams(search).get('path');
  if (forced === 'ws') return { path: 'ws' };
  if (forced === 'hls') return { path: 'hls' };
  if (forced === 'hlsjs') return { path: 'hls', engine: 'hls.js' };
  return { path: hasMediaSource ? 'ws' : 'hls' };
}
