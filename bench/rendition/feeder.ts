/**
 * Feeds the clip into an ffmpeg's stdin as the server does with a publisher's bytes: the FLV init,
 * then each tag as it is due (paced: tag time − first tag time after the first write, in wall
 * time), looping the clip with its timestamps moved on by the loop's length; or as fast as ffmpeg
 * reads (unpaced, for the batch speed). Records when each keyframe was written, so the outputs'
 * delays can be measured against it.
 */

import type { Writable } from 'node:stream';
import { encodeFlvTag } from '../../server/src/test/support.ts';
import { sleep } from '../support.ts';
import type { Clip } from './clip.ts';

export interface KeyframeWrite {
  /** Media time from the clip's first tag (the first frame written), ms. */
  mediaMs: number;
  /** Wall time it was written (performance.now()). */
  at: number;
}

export class Feeder {
  /** performance.now() when the first frame was written. */
  startedAt = Number.NaN;
  readonly keyframes: KeyframeWrite[] = [];
  /** The most bytes ffmpeg had not yet read (stdin's writableLength), sampled at each write. */
  maxBacklog = 0;
  mediaMs = 0;
  private index = 0;
  private readonly lastTimestamp = new Map<number, number>();
  private stopped = false;

  constructor(
    private readonly clip: Clip,
    private readonly stdin: Writable,
  ) {}

  /** The next tag of the endless loop, its timestamp moved on; undefined for a tag to skip. */
  private next(): { bytes: Buffer; mediaMs: number; keyframe: boolean } | undefined {
    const { tags, loopMs } = this.clip;
    const tag = tags[this.index % tags.length];
    const pass = Math.floor(this.index / tags.length);
    this.index += 1;
    if (!tag) return undefined;
    const first = tags[0]?.timestamp ?? 0;
    const timestamp = tag.timestamp + pass * loopMs;
    // An AAC frame of the loop's end may reach past it: the next pass's first one is then dropped.
    const last = this.lastTimestamp.get(tag.type);
    if (last !== undefined && timestamp <= last) return undefined;
    this.lastTimestamp.set(tag.type, timestamp);
    return {
      bytes: encodeFlvTag(tag.type, timestamp, tag.data),
      mediaMs: timestamp - first,
      keyframe: tag.keyframe,
    };
  }

  private write(bytes: Buffer): boolean {
    const ok = this.stdin.write(bytes);
    this.maxBacklog = Math.max(this.maxBacklog, this.stdin.writableLength);
    return ok;
  }

  private writeTag(tag: { bytes: Buffer; mediaMs: number; keyframe: boolean }): boolean {
    const at = performance.now();
    if (Number.isNaN(this.startedAt)) this.startedAt = at;
    if (tag.keyframe) this.keyframes.push({ mediaMs: tag.mediaMs, at });
    this.mediaMs = tag.mediaMs;
    return this.write(tag.bytes);
  }

  /** Real time until stop(): never waits for ffmpeg (a slow one builds a backlog, as in the server). */
  async paced(): Promise<void> {
    this.write(this.clip.init);
    let pending = this.next();
    while (!this.stopped) {
      if (!pending) {
        pending = this.next();
        continue;
      }
      const due = Number.isNaN(this.startedAt) ? 0 : this.startedAt + pending.mediaMs;
      const now = performance.now();
      if (due > now) {
        await sleep(Math.min(due - now, 50));
        continue;
      }
      this.writeTag(pending);
      pending = this.next();
    }
  }

  /** As fast as ffmpeg reads, `mediaSeconds` of it, then the end of the input. */
  async unpaced(mediaSeconds: number, signal: AbortSignal): Promise<void> {
    this.write(this.clip.init);
    while (!this.stopped && !signal.aborted) {
      const tag = this.next();
      if (!tag) continue;
      if (tag.mediaMs >= mediaSeconds * 1000) break;
      if (!this.writeTag(tag)) await this.drained();
    }
    this.stdin.end();
  }

  /** Until stdin takes more (or closes: ffmpeg is gone). */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stdin.off('drain', done);
        this.stdin.off('close', done);
        resolve();
      };
      this.stdin.on('drain', done);
      this.stdin.on('close', done);
    });
  }

  stop(): void {
    this.stopped = true;
  }
}
