/** The checkout bench's flags and defaults. */
import { cliFlags } from '../support.ts';

export const DEFAULTS = {
  buyers: 500,
  stock: 100,
  reconfirm: 20,
  warmup: 20,
  maxSeconds: 240,
  cancelBuyers: 150,
  cancelStock: 50,
  cancelAttempts: 8,
  cancelSpreadMs: 4000,
  feePercent: 2.9,
};

export interface Options {
  buyers: number;
  stock: number;
  concurrency: number;
  reconfirm: number;
  warmup: number;
  maxSeconds: number;
  /** The PostgreSQL server to create the run's database on; absent: PGlite. */
  databaseUrl: string | undefined;
  /** Buyers of the cancels-and-refunds run (the first of the drop's buyers); 0 skips the run. */
  cancelBuyers: number;
  /** Units of that run's product. */
  cancelStock: number;
  /** How often a buyer of that run tries again after a 409 (a unit given back may come free). */
  cancelAttempts: number;
  /** That run's buyers arrive evenly over this many milliseconds. */
  cancelSpreadMs: number;
  /** PLATFORM_FEE_PERCENT of the server: the ledger's fee on every sale. */
  feePercent: number;
}

export function parseOptions(argv: string[]): Options {
  const { value, number } = cliFlags(argv);
  const buyers = number('buyers', DEFAULTS.buyers, 1, 5000);
  const databaseUrl = value('database-url') || process.env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new Error(`--database-url must be a postgres:// URL, got "${databaseUrl}"`);
  const feeText = value('fee-percent');
  const feePercent = feeText === undefined ? DEFAULTS.feePercent : Number(feeText);
  if (!Number.isFinite(feePercent) || feePercent < 0 || feePercent > 100)
    throw new Error(`--fee-percent must be a number from 0 to 100, got "${feeText}"`);
  return {
    buyers,
    stock: number('stock', DEFAULTS.stock, 1, 100_000),
    concurrency: number('concurrency', buyers, 1, 5000),
    reconfirm: number('reconfirm', DEFAULTS.reconfirm, 0, 5000),
    warmup: number('warmup', DEFAULTS.warmup, 0, 1000),
    maxSeconds: number('max-seconds', DEFAULTS.maxSeconds, 10, 3600),
    databaseUrl,
    // The run's buyers are the drop's: no more of them than signed up.
    cancelBuyers: Math.min(buyers, number('cancel-buyers', DEFAULTS.cancelBuyers, 0, 5000)),
    cancelStock: number('cancel-stock', DEFAULTS.cancelStock, 1, 100_000),
    cancelAttempts: number('cancel-attempts', DEFAULTS.cancelAttempts, 1, 100),
    cancelSpreadMs: number('cancel-spread-ms', DEFAULTS.cancelSpreadMs, 0, 60_000),
    feePercent,
  };
}
