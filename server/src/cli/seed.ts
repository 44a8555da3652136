/**
 * `npm run seed` seeds the demo data when the database has none.
 * `npm run seed -- --products 100000` then adds that many generated products (for benchmarks).
 * Reads the same configuration as the server (DATA_DIR, DATABASE_URL). The embedded database
 * locks DATA_DIR, so stop a server that uses the same folder first.
 */
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { runCli, UsageError } from './run-cli.ts';
import { seedDemoIfEmpty, seedLargeCatalogue } from './seed/index.ts';

const USAGE = 'Usage: npm run seed [-- --products N]   (N: how many extra products to add, e.g. 100000)';
const MAX_PRODUCTS = 10_000_000;

function parseArgs(args: string[]): { products: number | undefined } {
  let products: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    let value: string | undefined;
    if (arg === '--products') {
      value = args[i + 1];
      i++;
    } else if (arg.startsWith('--products=')) {
      value = arg.slice('--products='.length);
    } else {
      throw new UsageError(`Unknown argument '${arg}'.`);
    }
    const digits = value?.replaceAll('_', '') ?? '';
    if (!/^\d+$/.test(digits)) {
      throw new UsageError(
        `--products needs a whole number, got ${value === undefined ? 'nothing' : `'${value}'`}.`,
      );
    }
    products = Number(digits);
    if (products < 1 || products > MAX_PRODUCTS) {
      throw new UsageError(`--products must be between 1 and ${MAX_PRODUCTS.toLocaleString('en-US')}.`);
    }
  }
  return { products };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const started = performance.now();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  console.log(
    database.kind === 'pglite'
      ? `Database: embedded PGlite in ${config.dataDir}`
      : 'Database: PostgreSQL (DATABASE_URL)',
  );
  for (const notice of database.notices) console.warn(notice);
  try {
    const log = { info: (msg: string) => console.log(msg) };
    const demo = await seedDemoIfEmpty(database.db, config.dataDir, log);
    if (!demo) console.log('Demo data already present: nothing to seed (seed pictures checked).');
    if (args.products !== undefined) {
      console.log(`Adding ${args.products.toLocaleString('en-US')} products...`);
      let lastReport = performance.now();
      const result = await seedLargeCatalogue(database.db, config.dataDir, args.products, {
        log: (msg) => {
          // A progress line at most every 2 s.
          if (performance.now() - lastReport < 2000) return;
          lastReport = performance.now();
          console.log(msg);
        },
      });
      const rate = Math.round(result.products / Math.max(result.ms / 1000, 0.001));
      console.log(
        `Added ${result.products.toLocaleString('en-US')} products in ${seconds(result.ms)} ` +
          `(${rate.toLocaleString('en-US')} per second; VACUUM ANALYZE took ${seconds(result.vacuumMs)} of it).`,
      );
    }
  } finally {
    await database.close();
  }
  console.log(`Done in ${seconds(performance.now() - started)}.`);
}

runCli(main, USAGE, 'Seeding failed');
