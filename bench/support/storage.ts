/**
 * The run's storage: a temp DATA_DIR (PGlite) or a fresh database on a PostgreSQL server, set up
 * before the server starts and read in this process after it stopped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createThrowawayDatabase,
  loadDatabaseClient,
  type ThrowawayDatabase,
} from '../../server/src/test/support.ts';

export interface Storage {
  label: 'PGlite' | 'PostgreSQL';
  dataDir: string;
  /** The run's own database on the PostgreSQL server; absent: PGlite in dataDir. */
  databaseUrl?: string;
  drop(): Promise<void>;
}

/** A fresh temp DATA_DIR, and with `serverUrl` a fresh database on that PostgreSQL server (`bench` names both). */
export async function createStorage(serverUrl: string | undefined, bench: string): Promise<Storage> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `ss-${bench}-bench-`));
  if (!serverUrl) {
    return { label: 'PGlite', dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  let database: ThrowawayDatabase;
  try {
    database = await createThrowawayDatabase(serverUrl, `${bench}bench`);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    label: 'PostgreSQL',
    dataDir,
    databaseUrl: database.url,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      await database.drop();
    },
  };
}

export type Query = <R>(text: string, values?: unknown[]) => Promise<R[]>;

/** Opens the run's database in this process (the server must not be running on PGlite: one process only). */
export async function withDatabase<T>(storage: Storage, fn: (query: Query) => Promise<T>): Promise<T> {
  const { openDatabase } = await loadDatabaseClient();
  // openDatabase runs the migrations, so the schema exists before the server first starts.
  const database = await openDatabase(
    storage.databaseUrl ? { databaseUrl: storage.databaseUrl } : { dataDir: storage.dataDir },
  );
  try {
    return await fn(async (text, values) => (await database.pool.query(text, values)).rows);
  } finally {
    await database.close();
  }
}
