import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface ThrowawayDatabase {
  /** The new database's URL on the same server. */
  url: string;
  /** Drops it (closing whatever is still connected). */
  drop(): Promise<void>;
}

/**
 * A fresh, uniquely named database on the PostgreSQL server of `serverUrl`, for one test file or
 * one benchmark run; `label` goes into its name (streamshop_<label>_<random>).
 */
export async function createThrowawayDatabase(serverUrl: string, label: string): Promise<ThrowawayDatabase> {
  const name = `streamshop_${label.replace(/[^a-z0-9_]/gi, '').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
