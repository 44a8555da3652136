/**
 * `npm run export -- signups` prints the beta sign-ups as CSV; `preorders` the newsletter
 * pre-orders, `orders` the Stream Disc orders. `--out file.csv` writes a file instead of stdout.
 * Reads the same configuration as the server (DATA_DIR, DATABASE_URL). The embedded database
 * locks DATA_DIR, so stop a server that uses the same folder first (PostgreSQL has no such limit).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { EXPORT_KINDS, type ExportKind, exportCsv, isExportKind } from '../modules/disc/export.ts';
import { runCli, UsageError } from './run-cli.ts';

const USAGE = `Usage: npm run export -- <${EXPORT_KINDS.join('|')}> [--out file.csv]
  signups    beta sign-ups (email, source, created_at)
  preorders  newsletter 'Founders Batch' pre-orders
  orders     Stream Disc orders
Without --out the CSV goes to stdout (use \`npm run -s export -- ...\` to keep npm's banner out).`;

function parseArgs(args: string[]): { kind: ExportKind; out: string | undefined } {
  let kind: string | undefined;
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (arg === '--out' || arg === '-o') {
      out = args[i + 1];
      i++;
      if (!out) throw new UsageError(`${arg} needs a file name.`);
    } else if (arg.startsWith('--out=')) {
      out = arg.slice('--out='.length);
      if (!out) throw new UsageError('--out needs a file name.');
    } else if (arg.startsWith('-')) {
      throw new UsageError(`Unknown option '${arg}'.`);
    } else if (kind === undefined) {
      kind = arg;
    } else {
      throw new UsageError(`Only one kind per export, got '${kind}' and '${arg}'.`);
    }
  }
  if (kind === undefined) throw new UsageError('Say what to export.');
  if (!isExportKind(kind)) {
    throw new UsageError(`Unknown export '${kind}'. Choose one of: ${EXPORT_KINDS.join(', ')}.`);
  }
  return { kind, out };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // On stderr, like every message: stdout is the CSV.
  for (const notice of database.notices) console.error(notice);
  let result: Awaited<ReturnType<typeof exportCsv>>;
  try {
    result = await exportCsv(database.db, args.kind);
  } finally {
    await database.close();
  }
  if (args.out) {
    writeFileSync(args.out, result.csv);
    // Progress goes to stderr, so stdout stays pure CSV in every mode.
    console.error(`Wrote ${result.rows} ${args.kind} to ${path.resolve(args.out)}.`);
  } else {
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(result.csv, (error) => (error ? reject(error) : resolve())),
    );
  }
}

runCli(main, USAGE, 'Export failed');
