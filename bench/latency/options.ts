/** The latency bench's flags (`--name=value`), their bounds and the targets it reports against. */

export interface Options {
  seconds: number;
  warmup: number;
  lateJoins: number;
  baselineSeconds: number;
  maxSeconds: number;
}

export const DEFAULTS: Options = {
  seconds: 60,
  warmup: 5,
  lateJoins: 10,
  baselineSeconds: 12,
  maxSeconds: 300,
};
export const TARGET = { medianMs: 800, aimMedianMs: 500, hlsMedianMs: 3000, lateJoinFirstFrameMs: 1000 };
/** The stream runs on the free plan, which ends it at 1:39: what a stream does fits in this. */
export const FREE_PLAN_BUDGET_SEC = 90;
/** The viewers' start (HLS waits for segments) before the warm-up, at most. */
export const VIEWERS_START_SEC = 15;

export function parseOptions(argv: string[]): Options {
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  const options = {
    seconds: number('seconds', DEFAULTS.seconds, 10, 70),
    warmup: number('warmup', DEFAULTS.warmup, 1, 20),
    lateJoins: number('late-joins', DEFAULTS.lateJoins, 0, 20),
    baselineSeconds: number('baseline-seconds', DEFAULTS.baselineSeconds, 0, 60),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 30, 900),
  };
  if (VIEWERS_START_SEC + options.warmup + options.seconds > FREE_PLAN_BUDGET_SEC)
    throw new Error(
      `--warmup + --seconds must be at most ${FREE_PLAN_BUDGET_SEC - VIEWERS_START_SEC}: the viewers take up to ` +
        `${VIEWERS_START_SEC} s to start and the free plan ends the stream at 1:39`,
    );
  return options;
}
