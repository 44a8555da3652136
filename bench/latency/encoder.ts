/**
 * The RTMP broadcaster, ffmpeg as OBS: a seller signed up through the API creates a stream
 * (POST /api/rooms) and reads its ingest (GET /api/streams/:name/ingest); ffmpeg publishes to
 * rtmpUrl + '/' + streamKey with OBS's usual settings (libx264 veryfast, zerolatency, a keyframe
 * every second, 1.5 Mbit/s CBR, AAC in FLV) and the stream goes live when it connects. End Stream
 * is POST /api/streams/:name/end; then ffmpeg is stopped.
 *
 * This process is the camera and the microphone: it writes the clip's raw frames into ffmpeg's
 * stdin, frame n at its slot t0 + n/30, with 1/30 s of a tone into fd 3, and frame n's
 * broadcaster time is its slot. Why, and the error that carries (one-sided: the pacer's lateness,
 * reported), is in bench/latency.ts's doc comment (RTMP).
 */

import { type ChildProcess, spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { newAccount } from '../../e2e/accounts.ts';
import { sidCookie } from '../support/accounts.ts';
import { client } from '../support/http-client.ts';
import { cpuSeconds } from '../support/process-stats.ts';
import { untilLiveFromEncoder } from '../support/until-live.ts';
import type { Shown } from './analysis.ts';
import { CLIP, CLIP_FRAMES, yuvFrame } from './clip.ts';
import type { Rig } from './setup.ts';
import { checkNotStopped, stopAll, wait } from './stop.ts';

/** OBS's settings for the free plan (PLAN_VIDEO.free: 1.5 Mbit/s), as ffmpeg's arguments, the input excepted. */
export const ENCODER_OUTPUT = [
  ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
  ...['-g', String(CLIP.fps), '-keyint_min', String(CLIP.fps), '-sc_threshold', '0'],
  ...['-b:v', '1500k', '-maxrate', '1500k', '-bufsize', '1500k'],
  ...['-c:a', 'aac', '-b:a', '160k', '-f', 'flv'],
];
const SAMPLE_RATE = 48_000;
const TONE_HZ = 440;
/** A frame is dropped, as a camera would, while this many frames (3 s) are still unread by ffmpeg. */
const MAX_BACKLOG_FRAMES = 90;
const LIVE_TIMEOUT_MS = 20_000;

/** One second of the tone (440 whole periods), 16-bit little-endian mono: 30 frames' worth. */
const TONE = (() => {
  const samples = Buffer.alloc(SAMPLE_RATE * 2);
  for (let i = 0; i < SAMPLE_RATE; i++)
    samples.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * TONE_HZ * i) / SAMPLE_RATE)), i * 2);
  return samples;
})();

/** This process's wall clock in ms with sub-ms steps: a Date.now() tick paired with performance.now(). */
function wallClock(): () => number {
  const d0 = Date.now();
  let d = d0;
  while (d === d0) d = Date.now();
  const offset = d - performance.now();
  return () => offset + performance.now();
}

/** Writes frame n and its sound at t0 + n/30 until stopped; keeps every frame's slot and lateness. */
class FramePacer {
  /** Frame n (its number, n mod 600) at its slot: the broadcaster's side of the match. */
  readonly frames: Shown[] = [];
  /** Per frame written: write time − slot (ms). */
  readonly lateMs: number[] = [];
  dropped = 0;
  private n = 0;
  private next = yuvFrame(0);
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly video: Writable,
    private readonly audio: Writable,
    readonly t0: number,
    private readonly now: () => number,
  ) {}

  start(): void {
    this.tick();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.video.end();
    this.audio.end();
  }

  private tick(): void {
    if (this.stopped) return;
    const slot = this.t0 + (this.n * 1000) / CLIP.fps;
    const early = slot - this.now();
    if (early > 0) {
      this.timer = setTimeout(() => this.tick(), early);
      this.timer.unref();
      return;
    }
    if (this.video.writableLength > MAX_BACKLOG_FRAMES * this.next.length) this.dropped += 1;
    else {
      this.lateMs.push(-early);
      this.frames.push({ frame: this.n % CLIP_FRAMES, at: slot });
      this.video.write(this.next);
    }
    // The sound goes on whatever happened to the picture: 1,600 samples a frame, the tone's k-th 1/30 s.
    const chunk = TONE.length / CLIP.fps;
    const k = this.n % CLIP.fps;
    this.audio.write(TONE.subarray(k * chunk, (k + 1) * chunk));
    this.n += 1;
    this.next = yuvFrame(this.n % CLIP_FRAMES);
    this.tick();
  }
}

export interface Encoder {
  child: ChildProcess;
  pacer: FramePacer;
  exited: Promise<number | null>;
  /** ffmpeg's last error output. */
  stderr: () => string;
}

/** ffmpeg reading the pacer's frames and tone, publishing FLV to `target`; registered with the teardown. */
function startEncoder(rig: Rig, target: string): Encoder {
  const { width, height, fps } = CLIP;
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...[
        '-f',
        'rawvideo',
        '-pix_fmt',
        'yuv420p',
        '-video_size',
        `${width}x${height}`,
        '-framerate',
        String(fps),
      ],
      ...['-probesize', '32', '-analyzeduration', '0', '-i', 'pipe:0'],
      ...['-f', 's16le', '-ar', String(SAMPLE_RATE), '-ac', '1'],
      ...['-probesize', '32', '-analyzeduration', '0', '-i', 'pipe:3'],
      ...['-map', '0:v', '-map', '1:a', ...ENCODER_OUTPUT, target],
    ],
    { stdio: ['pipe', 'ignore', 'pipe', 'pipe'] },
  );
  rig.teardown.encoders.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const video = child.stdin as Writable;
  const audio = child.stdio[3] as Writable;
  // ffmpeg gone (dropped by the server, killed): the pipes' EPIPE is expected, the pacer stops.
  video.on('error', () => {});
  audio.on('error', () => {});
  const now = wallClock();
  const pacer = new FramePacer(video, audio, now(), now);
  const onAbort = () => pacer.stop();
  stopAll.signal.addEventListener('abort', onAbort, { once: true });
  const exited = new Promise<number | null>((resolve) => {
    child.once('error', (error) => {
      stderr += `\n${error.message}`;
      resolve(null);
    });
    child.once('exit', (code) => resolve(code));
  }).then((code) => {
    pacer.stop();
    stopAll.signal.removeEventListener('abort', onAbort);
    rig.teardown.encoders.delete(child);
    return code;
  });
  pacer.start();
  return { child, pacer, exited, stderr: () => stderr };
}

export interface EncoderBroadcast {
  base: string;
  roomName: string;
  /** /room/<name> */
  roomPath: string;
  /** Wall time the API first said the stream is live. */
  streamStartedAt: number;
  cookie: string;
  encoder: Encoder;
}

/** What the encoder did over a window, for the report. */
export interface EncoderRun {
  /** Every frame written, at its slot (the whole stream: viewers are matched against it). */
  frames: Shown[];
  /** Write time − slot of the frames whose slot is in the window (ms). */
  lateMs: number[];
  dropped: number;
  /** The bench's own ffmpeg over the window, % of one core: not the server's. */
  cpuPercent: number;
  command: string;
  /** ffmpeg's exit code when it ended before End Stream (else undefined), and its last error output. */
  exitedEarly?: number | null;
  stderr: string;
}

const errorText = (reply: { status: number; error?: string; body: unknown }) =>
  `${reply.status} ${reply.error ?? JSON.stringify(reply.body)}`;

/** A new seller creates a stream through the API; ffmpeg publishes to its ingest; resolves once the stream is live. */
export async function goLiveFromEncoder(rig: Rig, title: string): Promise<EncoderBroadcast> {
  const api = client(rig.base, stopAll.signal);
  const account = newAccount('latency_rtmp');
  const signedUp = await api.request('POST', '/api/auth/signup', {
    body: {
      firstName: account.firstName,
      lastName: account.lastName,
      handle: account.handle,
      email: account.email,
      password: account.password,
    },
  });
  if (signedUp.status !== 201) throw new Error(`RTMP seller's sign-up: ${errorText(signedUp)}`);
  const cookie = sidCookie(signedUp);
  const room = await api.request('POST', '/api/rooms', { cookie, body: { title } });
  if (room.status !== 201) throw new Error(`POST /api/rooms: ${errorText(room)}`);
  const roomName = room.body.roomName as string;
  const ingest = await api.request('GET', `/api/streams/${roomName}/ingest`, { cookie });
  if (ingest.status !== 200) throw new Error(`GET /api/streams/${roomName}/ingest: ${errorText(ingest)}`);
  checkNotStopped();
  const encoder = startEncoder(rig, `${ingest.body.rtmpUrl}/${ingest.body.streamKey}`);
  await untilLiveFromEncoder(api, roomName, encoder, LIVE_TIMEOUT_MS, wait);
  const streamStartedAt = Date.now();
  console.log(`  live in /room/${roomName} (rtmp ingest: ffmpeg to ${ingest.body.rtmpUrl})`);
  return { base: rig.base, roomName, roomPath: `/room/${roomName}`, streamStartedAt, cookie, encoder };
}

/** The encoder's CPU seconds now (NaN once it is gone). */
export const encoderCpuSeconds = (broadcast: EncoderBroadcast) =>
  cpuSeconds(broadcast.encoder.child.pid ?? 0);

/** The encoder's figures over [fromAt, toAt], its CPU from two readings of encoderCpuSeconds. */
export function encoderRun(
  broadcast: EncoderBroadcast,
  fromAt: number,
  toAt: number,
  cpu: { from: number; to: number },
): EncoderRun {
  const { pacer, child } = broadcast.encoder;
  const inWindow = pacer.frames
    .map((f, i) => [f, i] as const)
    .filter(([f]) => f.at >= fromAt && f.at <= toAt);
  return {
    frames: [...pacer.frames],
    lateMs: inWindow.map(([, i]) => pacer.lateMs[i] as number),
    dropped: pacer.dropped,
    cpuPercent: (100 * (cpu.to - cpu.from)) / ((toAt - fromAt) / 1000),
    command: child.spawnargs.join(' ').replace(/\/live\/[^ ]+$/, '/live/<key>'),
    ...(child.exitCode !== null || child.signalCode !== null ? { exitedEarly: child.exitCode } : {}),
    stderr: broadcast.encoder.stderr().trim(),
  };
}

/** End Stream through the API, then ffmpeg is stopped (SIGTERM, SIGKILL after 5 s). */
export async function endEncoderStream(broadcast: EncoderBroadcast): Promise<void> {
  const ended = await client(broadcast.base, stopAll.signal).request(
    'POST',
    `/api/streams/${broadcast.roomName}/end`,
    { cookie: broadcast.cookie },
  );
  if (ended.status !== 200) {
    checkNotStopped();
    console.warn(`  !! ending ${broadcast.roomPath}: ${errorText(ended)}`);
  }
  const { child, exited, pacer } = broadcast.encoder;
  pacer.stop();
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
