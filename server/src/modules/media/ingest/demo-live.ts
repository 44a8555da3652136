import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { ensureDemoClip } from './demo-clip.ts';

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
    options?: { liveWindowOnly?: boolean; ownLease?: boolean },
  ): Promise<void>;
  pushFromPublisher(roomName: string, chunk: Buffer): void;
  /** No publisher here any more: the room's viewers are told so (idle). */
  stopPublishing(roomName: string): Promise<void>;
  /** Another instance publishes the room now (or is about to): this one stops without a word. */
  handOver(roomName: string): void;
}

/**
 * The room's publisher lease in the database (the stream row's, as for any publisher): whichever
 * instance holds it loops the clip. `claim` takes it when it is free or lapsed, and renews it when
 * it is this instance's; it answers whether this instance holds it now.
 */
export interface DemoLease {
  claim(): Promise<boolean>;
  release(): Promise<void>;
}

const RESTART_MS = 2000;
/** A looper's lease lapses this long after its last renewal: then another instance takes over. */
export const DEMO_LEASE_SEC = 5;
/** How often every instance claims the lease (the looper renews it, the others try to take it). */
export const DEMO_CLAIM_MS = 1000;
/** A looper that could not renew stops this long before its lease lapses, before another starts. */
const SAFETY_MS = 1000;

/**
 * The demo's always-live room: a pre-encoded clip of the demo's show (demo-clip.ts; H.264 with a
 * keyframe every second, AAC, in Matroska; encoded once per machine, copied under DATA_DIR) that ffmpeg loops in real time without re-encoding
 * (`-stream_loop -1 -re -c copy`). Its bytes go to the room like a publisher's, through the same
 * pipeline (which copies H.264), so the room shows what any viewer of a live stream gets.
 *
 * With several instances one loops it: the one holding the room's publisher lease (DemoLease),
 * which every instance claims every DEMO_CLAIM_MS. A looper killed outright stops renewing it, and
 * another takes it over DEMO_LEASE_SEC later; one that stops (drain) releases it, and another
 * takes it at its next claim. A looper that cannot renew stops before its lease lapses.
 */
export class DemoLive {
  private child: ChildProcessByStdio<null, Readable, null> | undefined;
  private stopped = false;
  /** This instance holds the lease and loops the clip (bumped on every start: a stale run stops). */
  private looping = false;
  private generation = 0;
  /** Until when (performance.now()) the lease is known to be this instance's. */
  private heldUntil = 0;
  private claimTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  /** The claim under way, if any (never rejects): stop() waits for it. */
  private claiming: Promise<void> | undefined;
  /** The last claim took (or renewed) the lease. */
  private held = false;
  /** Said in the log that another instance loops the room (once per time it does). */
  private standingBy = false;
  /** Kills the clip's encoding if the server stops while it runs. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly clipDir: string,
    private readonly roomName: string,
    private readonly media: DemoPublishing,
    private readonly lease: DemoLease,
    private readonly log: {
      info(object: object, message: string): void;
      warn(object: object, message: string): void;
    },
    private readonly ffmpegPath = 'ffmpeg',
  ) {}

  /**
   * A (re)started loop: the room's publisher starts over, keeping only the live window in storage
   * (the room never ends, so it has no whole replay). Its lease is the election's, renewed here.
   */
  private onStart(): Promise<void> {
    const { roomName, log } = this;
    return this.media.startPublishing(
      roomName,
      'video/webm;codecs=h264',
      (reason) => log.warn({ roomName, reason }, 'demo live stream refused'),
      { liveWindowOnly: true, ownLease: true },
    );
  }

  private onBytes(chunk: Buffer): void {
    try {
      this.media.pushFromPublisher(this.roomName, chunk);
    } catch (error) {
      this.log.warn({ err: error, roomName: this.roomName }, 'demo live bytes refused');
    }
  }

  /** Makes the clip, then claims the lease now and every DEMO_CLAIM_MS until stop(). */
  async start(): Promise<void> {
    const clip = await this.ensureClip();
    if (this.stopped) return;
    this.claimTimer = setInterval(() => this.tick(clip), DEMO_CLAIM_MS);
    this.claimTimer.unref();
    await this.claim(clip);
  }

  /** A claim round; a looper whose renewals did not answer in time stops first (even one still pending). */
  private tick(clip: string): void {
    if (this.looping && performance.now() > this.heldUntil - SAFETY_MS) this.lapse();
    void this.claim(clip);
  }

  /** The lease may lapse before this instance can renew it: it stops looping before another starts. */
  private lapse(error?: unknown): void {
    this.log.warn({ err: error, roomName: this.roomName }, 'demo live room: lease not renewed; stopping');
    this.end();
    void this.media.stopPublishing(this.roomName);
  }

  private claim(clip: string): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.claiming ??= this.claimOnce(clip).finally(() => {
      this.claiming = undefined;
    });
    return this.claiming;
  }

  private async claimOnce(clip: string): Promise<void> {
    const askedAt = performance.now();
    try {
      const held = await this.lease.claim();
      this.held = held;
      if (this.stopped) return;
      if (held) {
        this.heldUntil = askedAt + DEMO_LEASE_SEC * 1000;
        this.standingBy = false;
        // A claim answered too late to count on: the next one starts the loop.
        if (!this.looping && performance.now() < this.heldUntil - SAFETY_MS) this.begin(clip);
      } else if (!this.standingBy) {
        this.standingBy = true;
        this.log.info({ roomName: this.roomName }, 'demo live room: another instance loops it');
        if (this.looping) {
          this.end();
          this.media.handOver(this.roomName);
        }
      }
    } catch (error) {
      // The database did not answer: loop on while the lease surely holds, then give way.
      if (this.looping && performance.now() > this.heldUntil - SAFETY_MS) this.lapse(error);
    }
  }

  private begin(clip: string): void {
    this.looping = true;
    this.generation += 1;
    this.log.info({ roomName: this.roomName }, 'demo live room: looping here');
    void this.loop(clip, this.generation).catch((error) =>
      this.log.warn({ err: error, roomName: this.roomName }, 'demo live loop failed to start'),
    );
  }

  /** Stops looping here (the lease is another's, or lapsing). */
  private end(): void {
    this.looping = false;
    this.generation += 1;
    clearTimeout(this.restartTimer);
    this.child?.kill('SIGKILL');
  }

  /**
   * The clip, encoded once per machine (demo-clip.ts) and copied into this server's folder: the
   * server loops it for as long as it runs, and a temporary folder may be emptied meanwhile.
   */
  private async ensureClip(): Promise<string> {
    const clip = path.join(this.clipDir, 'demo-live.mkv');
    if (existsSync(clip)) return clip;
    await mkdir(this.clipDir, { recursive: true });
    const made = await ensureDemoClip(this.ffmpegPath, this.stopping.signal);
    const partial = `${clip}.partial.mkv`;
    await copyFile(made, partial);
    await rename(partial, clip);
    return clip;
  }

  private async loop(clip: string, generation: number): Promise<void> {
    const current = () => !this.stopped && this.generation === generation;
    await this.onStart();
    if (!current()) {
      // The lease went while the publisher started: the pipeline just started goes too.
      if (!this.stopped && !this.looping) this.media.handOver(this.roomName);
      return;
    }
    const child = spawn(
      this.ffmpegPath,
      [
        ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip],
        ...['-c', 'copy', '-f', 'matroska', '-live', '1', 'pipe:1'],
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    this.child = child;
    child.stdout.on('data', (chunk: Buffer) => {
      if (current()) this.onBytes(chunk);
    });
    child.once('close', (code) => {
      if (this.child === child) this.child = undefined;
      if (!current()) return;
      this.log.warn({ code }, 'demo live loop exited; restarting');
      this.restartTimer = setTimeout(() => {
        if (current()) void this.loop(clip, generation).catch(() => {});
      }, RESTART_MS);
      this.restartTimer.unref();
    });
  }

  /**
   * The server stops: the loop ends and the lease is released, so another instance takes the
   * room over at its next claim (this one's last segments stay out of the live window).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    clearInterval(this.claimTimer);
    const wasLooping = this.looping;
    this.end();
    if (wasLooping) this.media.handOver(this.roomName);
    await this.claiming;
    if (!this.held) return;
    await this.lease
      .release()
      .catch((error) =>
        this.log.warn(
          { err: error, roomName: this.roomName },
          'releasing the demo room’s lease failed; it lapses',
        ),
      );
  }
}
