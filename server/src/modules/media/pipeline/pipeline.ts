import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { isFlvAvcInit } from '../containers/flv.ts';
import { Fmp4Error, type Fmp4Event, Fmp4Reader } from '../containers/fmp4.ts';
import { fmp4MimeType, relayEventOf } from '../containers/fmp4-splitter.ts';
import type { RelayEvent } from '../relay-events.ts';
import { type Cut, Segmenter } from './segmenter.ts';

/** Past this much unwritten input, ffmpeg is stuck: it is restarted. */
const MAX_INPUT_BACKLOG_BYTES = 8 * 1024 * 1024;
/** A run this long counts as healthy: the failure count starts over. */
const HEALTHY_RUN_MS = 20_000;
const STDERR_TAIL_CHARS = 1000;

/** One ffmpeg run's HLS files (segmenter.ts): `index.m3u8`, `init.mp4` and `seg-NNNNN.m4s` in `dir`. */
export interface PipelinePart {
  /**
   * The time it started (base 36 ms) and 48 random bits: unique within the stream across instances,
   * the prefix of its files in storage.
   */
  id: string;
  dir: string;
}

export interface PipelineLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface PipelineOptions {
  roomName: string;
  /** Each run writes its HLS files into a new folder below this one. */
  stagingDir: string;
  log: PipelineLogger;
  /** The live fMP4 for the WebSocket path, as relay events (reset + init, groups, appends). */
  onOutput: (event: RelayEvent) => void;
  /** A run started: its HLS files appear in the part's folder. */
  onPart: (part: PipelinePart) => void;
  /** The run's output cut into low-latency HLS parts and segments, as each is finished. */
  onCut?: (part: PipelinePart, cut: Cut) => void;
  /** That run's ffmpeg exited: its files are complete. */
  onPartEnd: (part: PipelinePart) => void;
  /** ffmpeg failed `maxFailures` times in a row: the pipeline has stopped. */
  onFailed: (reason: string) => void;
  ffmpegPath?: string;
  backoffMs?: number;
  maxBackoffMs?: number;
  maxFailures?: number;
  /** How long stop() lets ffmpeg write its last segment before killing it. */
  stopGraceMs?: number;
}

/**
 * ffmpeg's arguments for one run: the publisher's media (WebM, fragmented MP4 or FLV) on stdin;
 * out to fragmented MP4 on stdout, a fragment per packet: the WebSocket path's stream, which the
 * segmenter also cuts into HLS parts and segments (ADR 0024). Video is copied when it is H.264
 * already, else encoded with a keyframe every second; audio is always AAC. The input is probed as
 * little as possible so output starts at once.
 */
export function pipelineArgs(copyVideo: boolean): string[] {
  const video = copyVideo
    ? ['-c:v', 'copy']
    : [
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
        ...['-force_key_frames', 'expr:gte(t,n_forced*1)', '-maxrate', '2500k', '-bufsize', '2500k'],
        // The frames keep their own times: WebM's 1 ms time base would otherwise be taken for a
        // 1000 fps rate, and ffmpeg would duplicate every frame ~33 times to fill it.
        ...['-fps_mode', 'passthrough'],
        // The tee muxer does not ask encoders for global headers; the MP4 outputs need them.
        ...['-flags:v', '+global_header'],
      ];
  // A fragment per packet (frag_duration of 1 µs); frag_every_frame mistimes AAC in ffmpeg 5.1.
  // Through the tee muxer, as when it also wrote ffmpeg's own HLS: the fragments stay as they were.
  const live = 'f=mp4:movflags=frag_keyframe+empty_moov+default_base_moof+skip_trailer:frag_duration=1';
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ...['-probesize', '32768', '-analyzeduration', '0', '-i', 'pipe:0'],
    ...['-map', '0:v:0?', '-map', '0:a:0?'],
    ...video,
    ...['-c:a', 'aac', '-b:a', '128k', '-flags:a', '+global_header'],
    ...['-flush_packets', '1', '-f', 'tee', `[${live}]pipe:1`],
  ];
}

/** A WebM (Matroska CodecID), MP4 (avcC) or FLV (video codec id 7) init segment of H.264 video. */
export const isH264Init = (init: Buffer) =>
  init.includes('V_MPEG4/ISO/AVC') || init.includes('avcC') || isFlvAvcInit(init);

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/** Every running pipeline of this process (tests reach the ffmpeg child through it). */
const running = new Set<LivePipeline>();
export function runningPipelines(): LivePipeline[] {
  return [...running];
}

/**
 * The media pipeline of one publisher connection: one ffmpeg at a time, fed the publisher's
 * bytes as relay events (from its container's splitter, containers/), restarted with a doubling
 * backoff when it fails. A restarted ffmpeg starts a new part and begins at the publisher's next
 * keyframe, after the publisher's init segment.
 */
export class LivePipeline {
  private child: Child | undefined;
  /** The current child has had the init segment and a keyframe: it takes appends. */
  private fed = false;
  private inputInit: Buffer | undefined;
  private startedAt = 0;
  private failures = 0;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private exited: Promise<void> = Promise.resolve();

  /** The publisher's video is H.264 (copied as it is); anything else is encoded to H.264. */
  private copyVideo = false;

  constructor(private readonly options: PipelineOptions) {
    running.add(this);
  }

  /** The ffmpeg child now running, if any. */
  get process(): Child | undefined {
    return this.child;
  }

  /** The publisher's next bytes. */
  write(event: RelayEvent): void {
    if (event.kind === 'init') {
      // The codec is read from the init segment itself, whatever the publisher said it sends.
      this.inputInit = event.bytes;
      this.copyVideo = isH264Init(event.bytes);
      this.fed = false;
      if (!this.child && !this.restartTimer && !this.stopping) this.spawn();
      return;
    }
    const child = this.child;
    if (!child || this.stopping) return;
    if (event.kind === 'group') {
      if (!this.fed) {
        if (!this.inputInit) return;
        this.fed = true;
        this.send(child, Buffer.concat([this.inputInit, ...event.start, event.keyframe]));
      } else {
        this.send(child, event.keyframe);
      }
    } else if (event.kind === 'append' && this.fed) {
      this.send(child, event.bytes);
    }
  }

  private send(child: Child, bytes: Buffer) {
    if (child.stdin.writableLength > MAX_INPUT_BACKLOG_BYTES) {
      this.options.log.warn({ roomName: this.options.roomName }, 'media pipeline is behind; restarting it');
      child.kill('SIGKILL');
      return;
    }
    child.stdin.write(bytes);
  }

  private spawn(): void {
    const { options } = this;
    const id = `${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;
    const part = { id, dir: path.join(options.stagingDir, id) };
    mkdirSync(part.dir, { recursive: true });
    const child = spawn(options.ffmpegPath ?? 'ffmpeg', pipelineArgs(this.copyVideo), {
      cwd: part.dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.fed = false;
    this.startedAt = Date.now();
    options.onPart(part);

    const output = new Fmp4Reader();
    const segmenter = this.segmenterFor(part);
    child.stdout.on('data', (chunk: Buffer) => {
      if (this.child !== child) return;
      try {
        for (const event of output.push(chunk)) {
          if (event.kind === 'init')
            options.onOutput({ kind: 'reset', mimeType: fmp4MimeType(event.codecs) });
          options.onOutput(relayEventOf(event));
          segmenter.push(event);
        }
      } catch (error) {
        if (!(error instanceof Fmp4Error)) throw error;
        options.log.warn(
          { roomName: options.roomName, reason: error.message },
          'media pipeline output unreadable',
        );
        child.kill('SIGKILL');
      }
    });
    child.stdout.on('end', () => segmenter.end());
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-STDERR_TAIL_CHARS);
    });
    // A child that died leaves a broken pipe behind: its exit is handled below.
    child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => {
        stderr = error.message;
      });
      child.once('close', (code, signal) => {
        if (this.child === child) this.child = undefined;
        options.onPartEnd(part);
        if (!this.stopping) this.failed(code, signal, stderr.trim());
        resolve();
      });
    });
  }

  /**
   * The run's segmenter. Should it fail to write (a full disk), the run's HLS stops there and is
   * logged once; the WebSocket path goes on.
   */
  private segmenterFor(part: PipelinePart): { push(event: Fmp4Event): void; end(): void } {
    const { options } = this;
    const segmenter = new Segmenter(part.dir, (cut) => options.onCut?.(part, cut));
    let broken = false;
    const guard = (step: () => void) => {
      if (broken) return;
      try {
        step();
      } catch (error) {
        broken = true;
        options.log.warn(
          { roomName: options.roomName, partId: part.id, err: error },
          'writing the live HLS failed; this run has no more HLS',
        );
      }
    };
    return {
      push: (event) => guard(() => segmenter.push(event)),
      end: () => guard(() => segmenter.end()),
    };
  }

  private failed(code: number | null, signal: NodeJS.Signals | null, stderr: string): void {
    const { options } = this;
    if (Date.now() - this.startedAt > HEALTHY_RUN_MS) this.failures = 0;
    this.failures += 1;
    const maxFailures = options.maxFailures ?? 4;
    options.log.warn(
      { roomName: options.roomName, code, signal, failures: this.failures, ffmpeg: stderr },
      'media pipeline exited',
    );
    if (this.failures >= maxFailures) {
      this.stopping = true;
      running.delete(this);
      options.onFailed('The server could not read this video.');
      return;
    }
    const base = options.backoffMs ?? 250;
    const delay = Math.min(base * 2 ** (this.failures - 1), options.maxBackoffMs ?? 4000);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopping) this.spawn();
    }, delay);
  }

  /** Ends the input; ffmpeg writes its last segment and exits (killed after the grace). */
  async stop(): Promise<void> {
    this.stopping = true;
    running.delete(this);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (child) {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), this.options.stopGraceMs ?? 5000);
      await this.exited;
      clearTimeout(timer);
    }
  }
}
