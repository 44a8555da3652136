/** The shop bench's flags, defaults and target. */
import { cliFlags } from '../support.ts';

export const DEFAULTS = {
  viewers: 2000,
  buyers: 100,
  stock: 80,
  priceCents: 5000,
  offerUnits: 40,
  offerPriceCents: 3500,
  offerSeconds: 60,
  windowSec: 10,
  baseline: 3,
  warmup: 5,
  maxSeconds: 180,
};
export const TARGET = { p95: 200 };
export const VIEWER_CONCURRENCY = 64;

export interface Options {
  viewers: number;
  buyers: number;
  stock: number;
  offerUnits: number;
  windowSec: number;
  baseline: number;
  warmup: number;
  maxSeconds: number;
  databaseUrl: string | undefined;
  /** Two instances fanning out through this Redis server; absent: one instance, in-memory bus. */
  redisUrl: string | undefined;
}

export function parseOptions(argv: string[]): Options {
  const { value, number } = cliFlags(argv);
  const redisUrl = argv.includes('--redis')
    ? process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379'
    : value('redis') || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
    throw new Error(`--redis must be a redis:// URL, got "${redisUrl}"`);
  const databaseUrl =
    value('database-url') ||
    process.env.DATABASE_URL ||
    (redisUrl ? process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' : undefined);
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error(`--database-url must be a postgres:// URL, got "${databaseUrl}"`);
  const stock = number('stock', DEFAULTS.stock, 1, 10_000);
  return {
    viewers: number('viewers', DEFAULTS.viewers, 1, 15_000),
    buyers: number('buyers', DEFAULTS.buyers, 1, 2000),
    stock,
    offerUnits: number('offer-units', Math.min(DEFAULTS.offerUnits, stock), 1, stock),
    windowSec: number('window', DEFAULTS.windowSec, 1, 120),
    baseline: number('baseline', DEFAULTS.baseline, 1, 20),
    warmup: number('warmup', DEFAULTS.warmup, 0, 50),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 30, 3600),
    databaseUrl,
    redisUrl,
  };
}
