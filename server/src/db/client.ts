import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { startEmbeddedPostgres } from './embedded.ts';
import * as schema from './schema.ts';
import { markConnectionError } from './unavailable.ts';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle, as `db.transaction` passes it: the same queries as `Db`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  kind: 'pglite' | 'postgres';
  /** What opening it found worth a warning (embedded: leftovers of a crashed server it cleaned). */
  notices: string[];
  /**
   * Where each lost pooled connection is reported (PostgreSQL restarted, the backend was
   * terminated): stderr until the app hands over its logger. The pool opens a new one when asked.
   */
  reportLostConnections(report: (error: Error) => void): void;
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

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * A checked-out client whose connection is lost goes back to the pool at once, with the error, so
 * its slot is freed: Drizzle's transaction never releases a client whose BEGIN failed, and ten
 * such leaks would leave every later request waiting for a connection forever. The holder's own
 * release afterwards does nothing.
 */
function releasedWhenLost(client: pg.PoolClient): pg.PoolClient {
  const release = client.release;
  let released = false;
  const settle = (error?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener('error', settle);
    release(error);
  };
  client.on('error', settle);
  client.release = settle;
  return client;
}

/**
 * The pool, made to survive a PostgreSQL restart. node-postgres emits 'error' on a client whose
 * connection is lost; on an idle client the pool handles it, but on a checked-out one (inside a
 * transaction) nobody listens, and an 'error' event without a listener ends the process. So every
 * client gets a listener for its whole life, checked-out clients are released when lost, and
 * connection errors (failing to connect, or a connection dying) are marked as the database being
 * unavailable (503, not 500).
 */
class DatabasePool extends pg.Pool {
  constructor(config: pg.PoolConfig, onLost: (error: Error) => void) {
    super(config);
    this.on('connect', (client) => {
      // A lost connection may emit twice (PostgreSQL's FATAL message, then the socket's end).
      let reported = false;
      client.on('error', (error) => {
        // Before the client's queries fail with it (they are told on the next tick): a reset or a
        // broken pipe then reads as the database being unavailable.
        markConnectionError(error);
        if (reported) return;
        reported = true;
        onLost(error);
      });
    });
    // An idle client's loss is reported by the listener above; without this the pool's own
    // 'error' event would end the process.
    this.on('error', () => {});
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    // pool.query asks with a callback and keeps its own 'error' listener while it holds the client.
    if (callback) {
      super.connect((error, client, done) => callback(error && markConnectionError(error), client, done));
      return undefined;
    }
    return super.connect().then(releasedWhenLost, (error: unknown) => {
      throw markConnectionError(error);
    });
  }
}

export interface OpenDatabaseOptions {
  /** PostgreSQL URL; when absent the embedded PGlite is started. */
  databaseUrl?: string | undefined;
  /** Folder for the embedded database; undefined keeps it in memory. */
  dataDir?: string | undefined;
  /**
   * How long opening a PostgreSQL connection (or waiting for a free one) may take before the
   * query fails as "database unavailable" (503), so a PostgreSQL that hangs rather than refuses
   * does not hold requests until TCP gives up.
   */
  connectTimeoutMs?: number | undefined;
}

const CONNECT_TIMEOUT_MS = 10_000;

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  let pool: pg.Pool;
  let stopEmbedded = async () => {};
  let kind: Database['kind'];
  let notices: string[] = [];
  let report = (error: Error) =>
    console.error(`a database connection was lost (${error.message}); the pool opens a new one when asked`);
  const lost = (error: Error) => report(error);
  if (options.databaseUrl) {
    kind = 'postgres';
    pool = new DatabasePool(
      {
        connectionString: options.databaseUrl,
        max: 10,
        types,
        connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      },
      lost,
    );
  } else {
    kind = 'pglite';
    const embedded = await startEmbeddedPostgres(options.dataDir);
    stopEmbedded = embedded.stop;
    notices = embedded.notices;
    // PGlite is one session: a single connection keeps transactions and statements unambiguous.
    pool = new DatabasePool(
      {
        host: embedded.socketDir,
        port: 5432,
        user: 'postgres',
        database: 'postgres',
        max: 1,
        types,
      },
      lost,
    );
  }
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
    notices,
    reportLostConnections(next) {
      report = next;
    },
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
