/** The checkout bench's flags and defaults. */
import { cliFlags } from '../support.ts';

export const DEFAULTS = { buyers: 500, stock: 100, reconfirm: 20, warmup: 20, maxSeconds: 120 };

export interface Options {
  buyers: number;
  stock: number;
  concurrency: number;
  reconfirm: number;
  warmup: number;
  maxSeconds: number;
  /** The PostgreSQL server to create the run's database on; absent: PGlite. */
  databaseUrl: string | undefined;
}

export function parseOptions(argv: string[]): Options {
  const { value, number } = cliFlags(argv);
  const buyers = number('buyers', DEFAULTS.buyers, 1, 5000);
  const databaseUrl = value('database-url') || process.env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error(`--database-url must be a postgres:// URL, got "${databaseUrl}"`);
  return {
    buyers,
    stock: number('stock', DEFAULTS.stock, 1, 100_000),
    concurrency: number('concurrency', buyers, 1, 5000),
    reconfirm: number('reconfirm', DEFAULTS.reconfirm, 0, 5000),
    warmup: number('warmup', DEFAULTS.warmup, 0, 1000),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 10, 3600),
    databaseUrl,
  };
}
