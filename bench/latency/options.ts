/** The latency bench's flags (`--name=value`), their bounds and the targets it reports against. */

/**
 * How the broadcaster sends: the browser's MediaRecorder with H.264 in WebM (Chromium's default
 * here) or VP8 (re-encoded by the server), or an encoder (ffmpeg as OBS) with H.264 + AAC over RTMP.
 */
export type Ingest = 'h264' | 'vp8' | 'rtmp';
/** --ingest: one of them, `both` (the browser's two) or `all`. */
const INGESTS: Record<string, Ingest[]> = {
  all: ['h264', 'vp8', 'rtmp'],
  both: ['h264', 'vp8'],
  h264: ['h264'],
  vp8: ['vp8'],
  rtmp: ['rtmp'],
};

export interface Options {
  seconds: number;
  warmup: number;
  lateJoins: number;
  baselineSeconds: number;
  idleSeconds: number;
  /** The measured streams, one after another. */
  ingests: Ingest[];
  maxSeconds: number;
}

export const DEFAULTS = {
  seconds: 60,
  warmup: 5,
  lateJoins: 10,
  baselineSeconds: 12,
  idleSeconds: 10,
  ingest: 'all',
  maxSeconds: 600,
} as const;
/** The targets of the "Live video for every viewer" issue: WebSocket p50 ≤ 500 ms, aiming at 400. */
export const TARGET = {
  medianMs: 500,
  aimMedianMs: 400,
  hlsMedianMs: 3000,
  lateJoinFirstFrameMs: 1000,
  /** CPU of the server and its ffmpeg for one stream of H.264 ingest, browser or RTMP (480p; the clip is 360p), % of one core. */
  h264CpuPercent: 15,
};
/** The stream runs on the free plan, which ends it at 1:39: what a stream does fits in this. */
export const FREE_PLAN_BUDGET_SEC = 90;
/** The viewers' start (HLS waits for segments) before the warm-up, at most. */
export const VIEWERS_START_SEC = 15;

export function parseOptions(argv: string[]): Options {
  const raw = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const text = raw(name);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${text}"`);
    return n;
  };
  const ingest = raw('ingest') ?? DEFAULTS.ingest;
  const ingests = INGESTS[ingest];
  if (!ingests) throw new Error(`--ingest must be all, both, h264, vp8 or rtmp, got "${ingest}"`);
  const options: Options = {
    seconds: number('seconds', DEFAULTS.seconds, 10, 70),
    warmup: number('warmup', DEFAULTS.warmup, 1, 20),
    lateJoins: number('late-joins', DEFAULTS.lateJoins, 0, 20),
    baselineSeconds: number('baseline-seconds', DEFAULTS.baselineSeconds, 0, 60),
    idleSeconds: number('idle-seconds', DEFAULTS.idleSeconds, 0, 60),
    ingests,
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 30, 1200),
  };
  if (VIEWERS_START_SEC + options.warmup + options.seconds > FREE_PLAN_BUDGET_SEC)
    throw new Error(
      `--warmup + --seconds must be at most ${FREE_PLAN_BUDGET_SEC - VIEWERS_START_SEC}: the viewers take up to ` +
        `${VIEWERS_START_SEC} s to start and the free plan ends the stream at 1:39`,
    );
  return options;
}
