import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));
const WORKER = fileURLToPath(new URL('../db/embedded-worker.mjs', import.meta.url));

/**
 * What a migrated embedded database depends on: PGlite's version, the worker that starts it (its
 * extensions) and every migration. A change to any of them names a new template.
 */
function templateKey(): string {
  const hash = createHash('sha256');
  hash.update(pgliteVersion());
  hash.update(readFileSync(WORKER));
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      hash.update(path.relative(MIGRATIONS, full));
      if (entry.isDirectory()) walk(full);
      else hash.update(readFileSync(full));
    }
  };
  walk(MIGRATIONS);
  return hash.digest('hex').slice(0, 16);
}

/** PGlite's package.json is not among its exports: found from its entry point upwards. */
function pgliteVersion(): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (dir !== path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (name === '@electric-sql/pglite' && version) return version;
    }
    dir = path.dirname(dir);
  }
  throw new Error('@electric-sql/pglite: no package.json above its entry point');
}

let made: Promise<string> | undefined;

/**
 * The folder of an embedded database (PGlite) with every migration applied, made once per machine
 * and schema in the temp folder and copied for each test database and test server: PGlite's
 * initdb and the migrations take ~7 s, a copy well under one. The server still runs its migrations
 * at start (none is pending), so the copy is the same database a first start would have made; a
 * fresh start from nothing stays covered by the start check in `.ci/run`.
 */
export function pgliteTemplate(): Promise<string> {
  made ??= (async () => {
    const target = path.join(tmpdir(), `ss-pglite-template-${templateKey()}`);
    if (existsSync(target)) return target;
    const scratch = mkdtempSync(path.join(tmpdir(), 'ss-pglite-making-'));
    try {
      // On demand: the process-level harness (server-process.ts) need not load the database client.
      const { openDatabase } = await import('../db/client.ts');
      const database = await openDatabase({ dataDir: scratch });
      await database.close();
      try {
        // Atomic: another process making the same template at once either wins or loses whole.
        renameSync(path.join(scratch, 'pglite'), target);
      } catch (error) {
        if (!existsSync(target)) throw error;
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return target;
  })();
  return made;
}

/** Gives `dataDir` (new, without a database yet) a copy of the migrated template as its database. */
export async function seedDataDirFromTemplate(dataDir: string): Promise<void> {
  let template = await pgliteTemplate();
  if (!existsSync(template)) {
    // Removed since (a temp folder cleaned while the process runs): made again.
    made = undefined;
    template = await pgliteTemplate();
  }
  // The layout db/embedded.ts uses: DATA_DIR/pglite.
  cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
}
