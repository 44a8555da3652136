/** Matching the frames the viewer showed to the camera's, and the figures made of them. */

import { percentile } from '../report.ts';

import { CLIP_FRAMES, LOOP_MS } from './clip.ts';
import type { ProbeState } from './probe.ts';

/** A viewer frame may show up this much before the preview's copy (clock and vsync noise). */
export const MATCH_SLACK_MS = 50;
/**
 * How far back a viewer frame is matched to the preview's showing of the same number: a loop
 * less a second. The next older showing is a whole loop earlier, so a latency below this is never
 * matched to the wrong loop, and one above it counts as unmatched: the measurable limit (19 s).
 */
export const MATCH_WINDOW_MS = LOOP_MS - 1000;

export interface Shown {
  frame: number;
  /** Wall time (ms) the frame was expected on screen. */
  at: number;
}

export function shown(state: ProbeState | undefined, target: string): { all: Shown[]; decoded: Shown[] } {
  const frames = state?.targets[target]?.frames ?? [];
  const all = frames.map(([frame, , expected]) => ({ frame, at: (state?.offsetMs ?? 0) + expected }));
  return { all, decoded: all.filter((s) => s.frame >= 0) };
}

export interface Sample {
  at: number;
  frame: number;
  ms: number;
}

/** For every decoded sink frame, its delay after the source showed the same frame number. */
export function match(source: Shown[], sink: Shown[]): { samples: Sample[]; unmatched: number } {
  const bySource = new Map<number, number[]>();
  for (const s of source) {
    const list = bySource.get(s.frame) ?? [];
    list.push(s.at);
    bySource.set(s.frame, list);
  }
  const samples: Sample[] = [];
  let unmatched = 0;
  for (const s of sink) {
    // The frame numbers repeat every loop: the earliest showing in the window before this one
    // (the earliest: a preview that stalls shows a frame more than once).
    const candidates = (bySource.get(s.frame) ?? []).filter(
      (t) => t <= s.at + MATCH_SLACK_MS && t > s.at - MATCH_WINDOW_MS,
    );
    if (candidates.length === 0) {
      unmatched += 1;
      continue;
    }
    samples.push({ at: s.at, frame: s.frame, ms: s.at - Math.min(...candidates) });
  }
  return { samples, unmatched };
}

export interface Flow {
  /** Decoded frames per second shown. */
  fps: number;
  /** Longest time between two shown frames. */
  longestGapMs: number;
  /** Frame numbers never shown between two that were (live-edge jumps, dropped frames). */
  skipped: number;
  /** A frame shown again, or an earlier one after a later one. */
  repeats: number;
}

export function flow(decoded: Shown[], fromAt: number, toAt: number): Flow {
  const inWindow = decoded.filter((s) => s.at >= fromAt && s.at <= toAt);
  let longestGapMs = 0;
  let skipped = 0;
  let repeats = 0;
  for (let i = 1; i < inWindow.length; i++) {
    const a = inWindow[i - 1] as Shown;
    const b = inWindow[i] as Shown;
    longestGapMs = Math.max(longestGapMs, b.at - a.at);
    const step = (b.frame - a.frame + CLIP_FRAMES) % CLIP_FRAMES;
    if (step === 0 || step > CLIP_FRAMES / 2) repeats += 1;
    else skipped += step - 1;
  }
  return { fps: inWindow.length / ((toAt - fromAt) / 1000), longestGapMs, skipped, repeats };
}

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

export function stats(values: number[]): Stats {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    min: values.length ? Math.min(...values) : Number.NaN,
    max: values.length ? Math.max(...values) : Number.NaN,
  };
}

/** Per second of [fromAt, toAt): frames shown and the median latency, for the JSON. */
export function timeline(samples: Sample[], decoded: Shown[], fromAt: number, toAt: number) {
  const seconds = Math.round((toAt - fromAt) / 1000);
  return Array.from({ length: seconds }, (_, i) => {
    const a = fromAt + i * 1000;
    const b = a + 1000;
    return {
      frames: decoded.filter((s) => s.at >= a && s.at < b).length,
      p50: Math.round(
        percentile(
          samples.filter((s) => s.at >= a && s.at < b).map((s) => s.ms),
          50,
        ),
      ),
    };
  });
}

export interface LateJoin {
  index: number;
  /** Seconds into the stream when the navigation began. */
  atStreamSec: number;
  /** The path the room page chose by itself (data-path, data-engine of the video). */
  dataPath: string;
  dataEngine: string;
  /** Navigation start (the page's performance.timeOrigin) → first frame presented. */
  firstFrameMs: number;
  /** The same from this process: just before page.goto → first frame presented. */
  firstFrameFromGotoMs: number;
  firstFrameDecoded: boolean;
  /** Navigation start → the HTML in, DOMContentLoaded (the app's module script ran), GET /api/streams/:name answered. */
  htmlMs: number;
  domContentLoadedMs: number;
  streamApiMs: number;
  mediaSocketCreatedMs: number;
  mediaSocketOpenMs: number;
  firstMediaBytesMs: number;
  /** How far behind the broadcaster the first frame was, and the median over the next seconds. */
  firstFrameLatencyMs: number;
  settledLatencyMs: number;
  framesShown: number;
  /** Same-origin requests of the page load: [path, start, response end] (ms since navigation start). */
  resources: Array<[string, number, number]>;
  /** The player's User Timing marks (`live-video:<step>` → ms since navigation start, the first of each). */
  marks: Record<string, number>;
  error?: string;
  problems: string[];
}
