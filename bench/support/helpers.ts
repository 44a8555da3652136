/** Small helpers of the benchmarks: timing, number formatting, `--name=value` flags, counting, a bounded pool, polling. */
import { fileURLToPath } from 'node:url';
import { passesWithin } from '../../server/src/test/support.ts';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Wall-clock milliseconds with sub-millisecond resolution (performance.timeOrigin + performance.now()). */
export const wallMs = () => performance.timeOrigin + performance.now();
export const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));
/** `--name=value` flags: the raw text, or a whole number within bounds (underscores allowed: 10_000). */
export function cliFlags(argv: string[]) {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw.replaceAll('_', ''));
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  return { value, number };
}

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export const countBy = (values: Array<string | number>) => {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
};

/** Runs fn(0) … fn(count − 1), at most `concurrency` at a time. */
export async function runPool<T>(
  count: number,
  concurrency: number,
  fn: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await fn(i);
      }
    }),
  );
  return results;
}

/** Waits until `done()` or `maxMs` passed, polling every `pollMs`; answers whether `done()` became true. */
export const waitFor = (done: () => boolean, maxMs: number, pollMs = 20): Promise<boolean> =>
  passesWithin('the condition', done, { timeoutMs: maxMs, intervalMs: pollMs });
