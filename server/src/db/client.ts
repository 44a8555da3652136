import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded.ts';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle, as `db.transaction` passes it: the same queries as `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
/** An arbitrary constant: the advisory lock that serialises migrations across instances. */
const MIGRATION_LOCK_ID = 727_001;

/** int8 (counts, sums) arrive as strings from pg; parse them here, once. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number.parseInt(value, 10);
    return pg.types.getTypeParser(oid, format);
  },
};

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; when absent the embedded PGlite is started. */
  databaseUrl?: string | undefined;
  /** Folder for the embedded database; undefined keeps it in memory. */
  dataDir?: string | undefined;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  let pool: pg.Pool;
  let stopEmbedded = async () => {};
  let kind: Database['kind'];
  if (options.databaseUrl) {
    kind = 'postgres';
    pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, types });
  } else {
    kind = 'pglite';
    const embedded = await startEmbeddedPostgres(options.dataDir);
    stopEmbedded = embedded.stop;
    // PGlite is one session: a single connection keeps transactions and statements unambiguous.
    pool = new pg.Pool({
      host: embedded.socketDir,
      port: 5432,
      user: 'postgres',
      database: 'postgres',
      max: 1,
      types,
    });
  }
  pool.on('error', (error) => console.error('database pool error', error));
  const db = drizzle(pool, { schema });
  try {
    await runMigrations(pool);
  } catch (error) {
    await pool.end();
    await stopEmbedded();
    throw error;
  }
  return {
    db,
    pool,
    kind,
    async close() {
      await pool.end();
      await stopEmbedded();
    },
  };
}

async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
}
