import { type ChildProcessByStdio, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The demo room's stream row (written by the media repo's upsertDemoLiveStream). */
export interface DemoLiveStream {
  roomName: string;
  ownerHandle: string;
  title: string;
  description: string;
}

/** What the loop needs of the media service: to publish into the room like a broadcaster. */
export interface DemoPublishing {
  startPublishing(
    roomName: string,
    mimeType: string,
    onFailed: (reason: string) => void,
    options?: { liveWindowOnly?: boolean },
  ): Promise<void>;
  pushFromPublisher(roomName: string, chunk: Buffer): void;
}

/** The clip's length: it loops for as long as the server runs. */
const CLIP_SECONDS = 12;
const RESTART_MS = 2000;

/**
 * The demo's always-live room: a pre-encoded clip (H.264 with a keyframe every second, AAC, in
 * Matroska; made once under DATA_DIR) that ffmpeg loops in real time without re-encoding
 * (`-stream_loop -1 -re -c copy`). Its bytes go to the room like a publisher's, through the same
 * pipeline (which copies H.264), so the room shows what any viewer of a live stream gets.
 */
export class DemoLive {
  private child: ChildProcessByStdio<null, Readable, null> | undefined;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  /** Kills the clip's encoding if the server stops while it runs. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly clipDir: string,
    private readonly roomName: string,
    private readonly media: DemoPublishing,
    private readonly log: { warn(object: object, message: string): void },
    private readonly ffmpegPath = 'ffmpeg',
  ) {}

  /**
   * A (re)started loop: the room's publisher starts over, keeping only the live window in storage
   * (the room never ends, so it has no whole replay).
   */
  private onStart(): Promise<void> {
    const { roomName, log } = this;
    return this.media.startPublishing(
      roomName,
      'video/webm;codecs=h264',
      (reason) => log.warn({ roomName, reason }, 'demo live stream refused'),
      { liveWindowOnly: true },
    );
  }

  private onBytes(chunk: Buffer): void {
    try {
      this.media.pushFromPublisher(this.roomName, chunk);
    } catch (error) {
      this.log.warn({ err: error, roomName: this.roomName }, 'demo live bytes refused');
    }
  }

  async start(): Promise<void> {
    const clip = await this.ensureClip();
    if (!this.stopped) await this.loop(clip);
  }

  /** The clip, encoded once. */
  private async ensureClip(): Promise<string> {
    const clip = path.join(this.clipDir, 'demo-live.mkv');
    if (existsSync(clip)) return clip;
    await mkdir(this.clipDir, { recursive: true });
    const partial = `${clip}.partial.mkv`;
    await run(
      this.ffmpegPath,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', `testsrc2=s=854x480:r=30:d=${CLIP_SECONDS}`],
        ...['-f', 'lavfi', '-i', `sine=frequency=440:beep_factor=4:d=${CLIP_SECONDS}`],
        ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '30', '-b:v', '1000k'],
        ...['-c:a', 'aac', '-b:a', '96k', '-shortest', '-f', 'matroska', partial],
      ],
      { timeout: 120_000, signal: this.stopping.signal },
    );
    await rename(partial, clip);
    return clip;
  }

  private async loop(clip: string): Promise<void> {
    await this.onStart();
    if (this.stopped) return;
    const child = spawn(
      this.ffmpegPath,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip],
        ...['-c', 'copy', '-f', 'matroska', '-live', '1', 'pipe:1'],
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    this.child = child;
    child.stdout.on('data', (chunk: Buffer) => this.onBytes(chunk));
    child.once('close', (code) => {
      if (this.child === child) this.child = undefined;
      if (this.stopped) return;
      this.log.warn({ code }, 'demo live loop exited; restarting');
      this.timer = setTimeout(() => void this.loop(clip).catch(() => {}), RESTART_MS);
      this.timer.unref();
    });
  }

  stop(): void {
    this.stopped = true;
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    this.child?.kill('SIGKILL');
  }
}
