/**
 * The bench's own viewers, in its own process (both are light): the reference viewer, which reads
 * at full speed, keeps every message, knows each fragment's arrival time and which fragments start
 * at a video keyframe (Fmp4Splitter, the server's own parser), and records the stream for the
 * floor; and the slow viewer, which reads at a fixed low rate (wire.ts's throttle) and keeps what
 * it got: how many fragments, where the server skipped it ahead, and how late its fragments are.
 */

import { Fmp4Splitter } from '../../server/src/test/support.ts';
import { sleep } from '../support.ts';
import type { Recording } from './recording.ts';
import { connectWire, fragmentSequence, OPCODE, type WireClient } from './wire.ts';

export interface Reference {
  client: WireClient;
  /** Payload bytes received so far. */
  bytes(): number;
  /** performance.now() at which fragment `seq` arrived here. */
  arrivals: Map<number, number>;
  /** Fragments that start with a video keyframe. */
  keyframes: Set<number>;
  /** The newest fragment's sequence number. */
  newest(): number;
  /** Records `seconds` of the stream as it arrives (whole groups, keyframe to keyframe). */
  record(seconds: number): Promise<Recording>;
}

/** Connects the reference viewer; resolves once it has the init segment and a first keyframe. */
export async function connectReference(url: string): Promise<Reference> {
  const splitter = new Fmp4Splitter();
  let bytes = 0;
  let reset = '';
  let init: Buffer | undefined;
  let newest = 0;
  let recording: Array<{ at: number; bytes: Buffer; keyframe: boolean }> | undefined;
  const arrivals = new Map<number, number>();
  const keyframes = new Set<number>();
  const client = await connectWire({
    url,
    keepPayload: true,
    onMessage(opcode, length, payload, at) {
      bytes += length;
      if (!payload) return;
      if (opcode === OPCODE.text) {
        if (!init) reset = payload.toString();
        return;
      }
      if (opcode !== OPCODE.binary) return;
      const seq = fragmentSequence(payload);
      if (seq === undefined) {
        init ??= payload;
        splitter.push(payload);
        return;
      }
      const keyframe = splitter.push(payload).some((e) => e.kind === 'group');
      if (keyframe) keyframes.add(seq);
      arrivals.set(seq, at);
      newest = seq;
      recording?.push({ at, bytes: payload, keyframe });
    },
  });
  const deadline = performance.now() + 20_000;
  while (!(init && keyframes.size)) {
    if (performance.now() > deadline || client.closed) throw new Error(`no media from ${url} within 20 s`);
    await sleep(50);
  }
  return {
    client,
    bytes: () => bytes,
    arrivals,
    keyframes,
    newest: () => newest,
    async record(seconds) {
      recording = [];
      await sleep(seconds * 1000);
      const all = recording;
      recording = undefined;
      const first = all.findIndex((f) => f.keyframe);
      const last = all.findLastIndex((f) => f.keyframe);
      const firstAt = all[first]?.at ?? 0;
      if (!init || first < 0 || last <= first) throw new Error(`fewer than two keyframes in ${seconds} s`);
      return {
        reset,
        init,
        fragments: all.slice(first, last).map((f) => ({ at: f.at - firstAt, bytes: f.bytes })),
        loopMs: (all[last]?.at ?? 0) - firstAt,
      };
    },
  };
}

export interface SlowViewer {
  client: WireClient;
  connectedAt: number;
  /** Payload bytes received. */
  bytes: number;
  fragments: number;
  /**
   * Each jump in the fragments' numbers: when it was read, the bytes received before it, how many
   * fragments it missed, whether it resumed at a keyframe.
   */
  skips: Array<{ at: number; bytesBefore: number; missed: number; resumedAtKeyframe: boolean }>;
  /** Per fragment received: its arrival here − its arrival at the reference viewer (ms). */
  lateMs: number[];
  lastLateMs: number;
  /** When its reading stopped being throttled (its network recovered), and when it was live again (< 0.5 s behind). */
  unthrottledAt?: number;
  liveAgainAt?: number;
}

/** A viewer reading at most `bytesPerSec` from its socket; the reference tells where it stands. */
export async function connectSlowViewer(
  url: string,
  bytesPerSec: number,
  reference: Reference,
): Promise<SlowViewer> {
  let lastSeq: number | undefined;
  const slow: Omit<SlowViewer, 'client'> = {
    connectedAt: performance.now(),
    bytes: 0,
    fragments: 0,
    skips: [],
    lateMs: [],
    lastLateMs: 0,
  };
  const client = await connectWire({
    url,
    keepPayload: true,
    readBytesPerSec: bytesPerSec,
    onMessage(opcode, length, payload, at) {
      slow.bytes += length;
      if (opcode !== OPCODE.binary || !payload) return;
      const seq = fragmentSequence(payload);
      if (seq === undefined) return;
      slow.fragments += 1;
      if (lastSeq !== undefined && seq !== lastSeq + 1)
        slow.skips.push({
          at,
          bytesBefore: slow.bytes - length,
          missed: seq - lastSeq - 1,
          resumedAtKeyframe: reference.keyframes.has(seq),
        });
      lastSeq = seq;
      const seen = reference.arrivals.get(seq);
      if (seen !== undefined) {
        slow.lastLateMs = at - seen;
        slow.lateMs.push(slow.lastLateMs);
        if (slow.unthrottledAt !== undefined && slow.liveAgainAt === undefined && slow.lastLateMs < 500)
          slow.liveAgainAt = at;
      }
    },
  });
  return Object.assign(slow, { client });
}
