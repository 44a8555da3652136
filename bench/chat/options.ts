/** The chat bench's flags and target. */

export const TARGET = { viewers: 2000, rate: 20, p95: 50, p99: 100 };

export interface Options {
  viewers: number;
  rate: number;
  seconds: number;
  warmupSec: number;
  only: string[];
  /** The write load of the busy-pg scenarios: connections, and 2 kB rows per commit. */
  writeLoad: { connections: number; rows: number };
  /** A git ref whose server also runs the PostgreSQL scenarios, as "before" rows in the same run. */
  before: string | undefined;
}

export function parseOptions(argv: string[]): Options {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw.replaceAll('_', ''));
    if (!Number.isFinite(n) || n < min || n > max)
      throw new Error(`--${name} must be a number from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  return {
    viewers: Math.round(number('viewers', TARGET.viewers, 1, 15_000)),
    rate: number('rate', TARGET.rate, 0.1, 1000),
    seconds: number('seconds', 15, 1, 300),
    warmupSec: number('warmup', 2, 0, 60),
    only: (value('only') ?? '').split(',').filter(Boolean),
    writeLoad: {
      connections: Math.round(number('write-load', 4, 1, 64)),
      rows: Math.round(number('write-rows', 200, 1, 10_000)),
    },
    before: value('before') || undefined,
  };
}
