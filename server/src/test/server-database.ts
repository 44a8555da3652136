import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/**
 * A connection to the database a running server process uses, from a test or a bench: its
 * DATABASE_URL, or else the embedded PGlite of its DATA_DIR, through the unix socket the server
 * serves it on (DATA_DIR/server.lock names the folder, db/embedded.ts). PGlite is one session: a
 * transaction held here holds the server's queries until it ends (the socket server runs one
 * connection's transaction at a time), and the connection ends with the server.
 */
export async function connectToServerDatabase(options: {
  dataDir: string;
  databaseUrl?: string | undefined;
}): Promise<pg.Client> {
  const client = options.databaseUrl
    ? new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 10_000 })
    : new pg.Client({
        host: embeddedSocketDir(options.dataDir),
        port: 5432,
        user: 'postgres',
        database: 'postgres',
        connectionTimeoutMillis: 10_000,
      });
  // A killed server ends the connection: the caller sees it as a failed query, not a crash.
  client.on('error', () => {});
  await client.connect();
  return client;
}

/** The socket folder the server running on `dataDir` recorded in its lock file. */
function embeddedSocketDir(dataDir: string): string {
  const text = readFileSync(path.join(dataDir, 'server.lock'), 'utf8');
  const socketDir = (JSON.parse(text) as { socketDir?: unknown }).socketDir;
  if (typeof socketDir !== 'string') throw new Error(`no embedded database socket recorded in ${dataDir}`);
  return socketDir;
}
