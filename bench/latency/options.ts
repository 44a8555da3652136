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
  lateJoins: 3,
  baselineSeconds: 12,
  maxSeconds: 150,
};
export const TARGET = { medianMs: 800, aimMedianMs: 500, hlsMedianMs: 3000, lateJoinFirstFrameMs: 1000 };
/** The stream runs on the free plan, which ends it at 1:39: warm-up + measured seconds stay under this. */
export const FREE_PLAN_BUDGET_SEC = 90;

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
    seconds: number('seconds', DEFAULTS.seconds, 10, 85),
    warmup: number('warmup', DEFAULTS.warmup, 1, 20),
    lateJoins: number('late-joins', DEFAULTS.lateJoins, 0, 5),
    baselineSeconds: number('baseline-seconds', DEFAULTS.baselineSeconds, 0, 60),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 30, 900),
  };
  if (options.seconds + options.warmup > FREE_PLAN_BUDGET_SEC)
    throw new Error('--warmup + --seconds must be at most 90: the free plan ends the stream at 1:39');
  return options;
}
