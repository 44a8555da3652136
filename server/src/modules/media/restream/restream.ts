import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { LookupFunction } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { FlvReader } from '../containers/flv.ts';
import type { RelayEvent } from '../relay-events.ts';
import { parseRtmpUrl, RtmpPublisher, type RtmpTarget } from './publisher.ts';

/** Past this much unwritten input, ffmpeg is behind: skip to the next keyframe group. */
export const MAX_RESTREAM_BACKLOG_BYTES = 4 * 1024 * 1024;
/** A child that ran this long before failing counts as healthy: the backoff starts over. */
const HEALTHY_RUN_MS = 30_000;
/** Keep this much of ffmpeg's stderr for the warning when it exits. */
const STDERR_TAIL_CHARS = 2000;

/**
 * ffmpeg's arguments: the room's live media (the pipeline's fragmented MP4; any format ffmpeg
 * recognises) on stdin, H.264/AAC in FLV on
 * stdout, which an RtmpPublisher sends to the RTMP URL: the URL and its stream key never appear
 * on ffmpeg's command line, which every user of the machine can read (`ps`, /proc/<pid>/cmdline).
 * The input is probed as little as possible, so the push starts right after the init segment and
 * first frames; the output follows what RTMP platforms ask for (constant 30 fps, a keyframe every
 * 2 s, capped bitrate, stereo 44.1 kHz AAC).
 */
export function restreamArgs(): string[] {
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error'],
    ...['-fflags', '+genpts', '-probesize', '32', '-analyzeduration', '0', '-i', 'pipe:0'],
    ...['-map', '0:v:0?', '-map', '0:a:0?'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
    ...['-r', '30', '-g', '60', '-maxrate', '2500k', '-bufsize', '5000k'],
    ...['-c:a', 'aac', '-ar', '44100', '-ac', '2', '-b:a', '128k'],
    ...['-flvflags', 'no_duration_filesize', '-f', 'flv', 'pipe:1'],
  ];
}

/**
 * The RTMP URL without its secret: scheme, host and the app name (the first path segment) stay,
 * the stream key (the rest of the path, the query, any user info) does not.
 */
export function redactRtmpUrl(rtmpUrl: string): string {
  try {
    const url = new URL(rtmpUrl);
    const app = url.pathname.split('/').filter(Boolean)[0];
    return `${url.protocol}//${url.host}/${app ? `${app}/` : ''}***`;
  } catch {
    return 'rtmp://***';
  }
}

/** `text` with every trace of the URL's secret parts replaced (for ffmpeg's messages). */
export function scrubRtmpUrl(text: string, rtmpUrl: string): string {
  const redacted = redactRtmpUrl(rtmpUrl);
  let out = text.replace(/rtmps?:\/\/\S+/gi, (found) =>
    found.startsWith(rtmpUrl) ? `${redacted}${found.slice(rtmpUrl.length)}` : redactRtmpUrl(found),
  );
  const secrets = new Set<string>();
  try {
    const url = new URL(rtmpUrl);
    const [, ...rest] = url.pathname.split('/').filter(Boolean);
    const key = rest.join('/');
    for (const secret of [key, `${key}${url.search}`, url.username, url.password]) {
      if (secret.length >= 3) secrets.add(secret);
      try {
        if (secret.length >= 3) secrets.add(decodeURIComponent(secret));
      } catch {
        // not percent-encoded
      }
    }
  } catch {
    // an unparsable URL: the pattern above already hid it
  }
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('***');
  return out;
}

/**
 * The point ffmpeg (re)starts from: the start of the relayed stream. `bytes` is the init segment,
 * plus the current keyframe group when there is one (`inGroup`), so the following live bytes
 * continue it.
 */
export interface RelayStart {
  bytes: Buffer;
  inGroup: boolean;
}

/** A relay snapshot (RoomRelay.snapshot()) as the bytes a restream starts from. */
export function relayStartOf(snapshot: RelayEvent | undefined): RelayStart | undefined {
  if (snapshot?.kind !== 'snapshot') return undefined;
  const parts: Buffer[] = [];
  let hasInit = false;
  let inGroup = false;
  for (const event of snapshot.events) {
    if (event.kind === 'init') {
      parts.push(event.bytes);
      hasInit = true;
    } else if (event.kind === 'group' && hasInit) {
      // The group's Cluster start and Timecode come before its keyframe.
      parts.push(...event.start, event.keyframe);
      inGroup = true;
    } else if (event.kind === 'append' && inGroup) {
      parts.push(event.bytes);
    }
  }
  return hasInit ? { bytes: Buffer.concat(parts), inGroup } : undefined;
}

export interface RestreamLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface RestreamOptions {
  roomName: string;
  rtmpUrl: string;
  log: RestreamLogger;
  /** Where the room's relayed stream starts right now, for a (re)started ffmpeg. */
  resume: () => RelayStart | undefined;
  /** Spawns only once this settles (the previous publisher's ffmpeg letting go of the URL). */
  after?: Promise<unknown>;
  ffmpegPath?: string;
  /** How the RTMP host is resolved on every (re)connection: one that refuses private addresses. */
  lookup?: LookupFunction;
  /** First restart delay; it doubles after every failure up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long stop() lets ffmpeg flush before killing it. */
  stopGraceMs?: number;
  maxBacklogBytes?: number;
}

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/** Every running restream of this process (tests reach the ffmpeg child through it). */
const running = new Set<Restream>();
export function runningRestreams(): Restream[] {
  return [...running];
}

/**
 * Restreaming of one publisher connection to an external RTMP URL (a pro feature): one ffmpeg
 * child turning the relayed stream (the pipeline's fMP4) into H.264/AAC FLV, which an RtmpPublisher sends to the
 * URL (ffmpeg never sees the URL or its key). It is fed relay events (the same
 * bytes as the publisher's, minus any stretch it skipped), and never blocks or fails anything
 * else: when ffmpeg is behind it skips ahead to the next keyframe; when ffmpeg exits while the
 * stream is live it is restarted with backoff (1 s, 2 s, 4 s … 30 s) and fed the relay's init
 * segment and current keyframe group first, then the live bytes.
 */
export class Restream {
  readonly roomName: string;
  private readonly options: Required<Omit<RestreamOptions, 'after' | 'lookup'>>;
  private readonly lookup: LookupFunction | undefined;
  private child: Child | undefined;
  /** What the current child needs next: the init segment, a keyframe group, or anything. */
  private state: 'init' | 'keyframe' | 'flowing' = 'init';
  private startedAt = 0;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private stopping: Promise<void> | undefined;
  private stderrTail = '';
  private warnedBehind = false;
  /** Where the stream goes (parsed once; a bad URL fails every publish, with backoff). */
  private readonly target: RtmpTarget | Error;
  /** The current RTMP connection, from its publish until the next one replaces it. */
  private publisher: RtmpPublisher | undefined;
  /** Why the last RTMP connection failed, for the exit's warning. */
  private publishError: string | undefined;
  /** How many ffmpeg processes this restream has started. */
  starts = 0;

  constructor(options: RestreamOptions) {
    this.roomName = options.roomName;
    this.lookup = options.lookup;
    this.options = {
      roomName: options.roomName,
      rtmpUrl: options.rtmpUrl,
      log: options.log,
      resume: options.resume,
      ffmpegPath: options.ffmpegPath ?? 'ffmpeg',
      backoffMs: options.backoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      stopGraceMs: options.stopGraceMs ?? 3000,
      maxBacklogBytes: options.maxBacklogBytes ?? MAX_RESTREAM_BACKLOG_BYTES,
    };
    try {
      this.target = parseRtmpUrl(options.rtmpUrl);
    } catch (error) {
      this.target = error instanceof Error ? error : new Error(String(error));
    }
    running.add(this);
    this.options.log.info(
      { roomName: this.roomName, rtmpUrl: redactRtmpUrl(options.rtmpUrl) },
      'restream starting',
    );
    void Promise.resolve(options.after)
      .catch(() => {})
      .then(() => this.spawn());
  }

  /** The running ffmpeg's pid (undefined between restarts). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The next relay event of the publisher on this instance. Never throws. */
  push(event: RelayEvent): void {
    try {
      switch (event.kind) {
        case 'reset':
          this.state = 'init';
          return;
        case 'init':
          if (this.state === 'init' && this.write([event.bytes], true)) this.state = 'flowing';
          return;
        case 'group':
          if (this.state === 'keyframe') {
            if (this.write([...event.start, event.keyframe], false)) this.state = 'flowing';
          } else if (this.state === 'flowing') {
            this.write([event.keyframe], false);
          }
          return;
        case 'append':
          if (this.state === 'flowing') this.write([event.bytes], false);
          return;
        default:
          return;
      }
    } catch (error) {
      this.options.log.warn({ err: error, roomName: this.roomName }, 'restream write failed');
    }
  }

  /** Ends ffmpeg's input (it flushes and closes the RTMP stream); kills it after the grace period. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      running.delete(this);
      clearTimeout(this.restartTimer);
      const child = this.child;
      const killer = setTimeout(() => {
        child?.kill('SIGKILL');
        this.publisher?.destroy();
      }, this.options.stopGraceMs);
      if (child && child.exitCode === null && child.signalCode === null) {
        const closed = new Promise((resolve) => child.once('close', resolve));
        child.stdin.end();
        await closed;
      }
      // ffmpeg's last tags are sent; then the stream is unpublished.
      await this.publisher?.end();
      clearTimeout(killer);
    })();
    return this.stopping;
  }

  /** Writes to the current child; false (and dropped) when there is none or it is too far behind. */
  private write(parts: Buffer[], force: boolean): boolean {
    const stdin = this.child?.stdin;
    if (!stdin?.writable) return false;
    if (!force && stdin.writableLength > this.options.maxBacklogBytes) {
      if (this.state === 'flowing') this.state = 'keyframe';
      if (!this.warnedBehind) {
        this.warnedBehind = true;
        this.options.log.warn(
          { roomName: this.roomName },
          'restream is behind; skipping to the next keyframe',
        );
      }
      return false;
    }
    for (const part of parts) stdin.write(part);
    return true;
  }

  private spawn(): void {
    if (this.stopped) return;
    let child: Child;
    try {
      child = spawn(this.options.ffmpegPath, restreamArgs(), { stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      this.exited(undefined, { error });
      return;
    }
    try {
      this.attach(child);
    } catch (error) {
      // Whatever went wrong, this child is not usable: it is killed, and its exit restarts it.
      this.options.log.warn({ err: error, roomName: this.roomName }, 'starting the restream failed');
      child.kill('SIGKILL');
    }
  }

  private attach(child: Child): void {
    this.child = child;
    this.starts += 1;
    this.startedAt = Date.now();
    this.stderrTail = '';
    this.warnedBehind = false;
    let done = false;
    const onDone = (details: { code?: number | null; signal?: string | null; error?: unknown }) => {
      if (done) return;
      done = true;
      this.exited(child, details);
    };
    // EPIPE and the like once ffmpeg is gone: its exit is handled below.
    child.stdin.on('error', () => {});
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    child.once('error', (error) => onDone({ error }));
    child.once('close', (code, signal) => onDone({ code, signal }));

    // A valid start: the relay's init segment and current keyframe group, when it has them.
    this.state = 'init';
    const start = this.options.resume();
    if (start && this.write([start.bytes], true)) this.state = start.inGroup ? 'flowing' : 'keyframe';
    this.publish(child);
  }

  /**
   * Connects to the RTMP URL while ffmpeg starts, then sends ffmpeg's FLV there. ffmpeg's output
   * waits (paused) until the server accepted the publish, and whenever the connection is full.
   * If the connection fails, ffmpeg is killed: its exit restarts both with backoff.
   */
  private publish(child: Child): void {
    const output = child.stdout;
    output.pause();
    this.publishError = undefined;
    const failed = (error: unknown) => {
      if (this.child !== child) return;
      this.publishError = error instanceof Error ? error.message : String(error);
      child.kill('SIGKILL');
    };
    const target = this.target;
    const connecting =
      target instanceof Error
        ? Promise.reject(target)
        : RtmpPublisher.publish(target, { lookup: this.lookup });
    connecting.then((publisher) => {
      if (this.child !== child || this.stopped) {
        publisher.destroy();
        return;
      }
      this.publisher = publisher;
      const flv = new FlvReader();
      publisher.on('drain', () => output.resume());
      publisher.once('close', (error?: Error) => {
        if (error) failed(error);
      });
      output.on('data', (bytes: Buffer) => {
        try {
          // The header has no RTMP message: each tag becomes one.
          for (const item of flv.push(bytes))
            if (item.kind === 'tag' && !publisher.send(item)) output.pause();
        } catch (error) {
          failed(error);
        }
      });
      // ffmpeg flushed and exited (stop(), or a crash): the stream is unpublished.
      output.once('end', () => void publisher.end());
      output.resume();
    }, failed);
  }

  private exited(
    child: Child | undefined,
    details: { code?: number | null; signal?: string | null; error?: unknown },
  ): void {
    if (child && this.child !== child) return;
    this.child = undefined;
    if (this.stopped) return;
    if (child && Date.now() - this.startedAt >= HEALTHY_RUN_MS) this.failures = 0;
    const delay = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** this.failures);
    this.failures += 1;
    const { error, ...exit } = details;
    this.options.log.warn(
      {
        roomName: this.roomName,
        rtmpUrl: redactRtmpUrl(this.options.rtmpUrl),
        ...exit,
        error: error instanceof Error ? scrubRtmpUrl(error.message, this.options.rtmpUrl) : undefined,
        publishError: this.publishError && scrubRtmpUrl(this.publishError, this.options.rtmpUrl),
        stderr: scrubRtmpUrl(this.stderrTail.trim(), this.options.rtmpUrl) || undefined,
        restartInMs: delay,
      },
      'restream ffmpeg exited; restarting',
    );
    this.restartTimer = setTimeout(() => this.spawn(), delay);
    this.restartTimer.unref();
  }
}
