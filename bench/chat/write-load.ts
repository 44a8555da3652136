/**
 * A concurrent write load on the chat bench's PostgreSQL database, to measure chat while the
 * database is busy (issue 18): `connections` clients, each committing batches of `rows` rows of
 * 2 kB into a table of its own, as fast as they can. Each table is emptied every 20 batches so a
 * run does not fill the disk. The tables live in the bench's throwaway database and go with it.
 */
import pg from 'pg';
import { percentile } from '../report.ts';

export interface WriteLoadOptions {
  connections: number;
  rows: number;
}

export interface WriteLoadFigures {
  connections: number;
  rowsPerCommit: number;
  commits: number;
  /** MB written per second, rows only (the WAL carries more). */
  mbPerSec: number;
  commitP50: number;
  commitP95: number;
}

export interface WriteLoad {
  /** Starts measuring afresh (call at the start of the measured run). */
  mark(): void;
  stop(): Promise<WriteLoadFigures>;
}

const ROW = 'x'.repeat(2000);

export async function startWriteLoad(databaseUrl: string, options: WriteLoadOptions): Promise<WriteLoad> {
  let stopping = false;
  let commits: number[] = [];
  let since = performance.now();
  const clients = await Promise.all(
    Array.from({ length: options.connections }, async (_, i) => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(
        `create table if not exists bench_write_load_${i} (id bigserial primary key, body text)`,
      );
      return client;
    }),
  );
  const loops = clients.map(async (client, i) => {
    for (let batch = 1; !stopping; batch++) {
      const t0 = performance.now();
      await client.query(`insert into bench_write_load_${i} (body) select $1 from generate_series(1, $2)`, [
        ROW,
        options.rows,
      ]);
      commits.push(performance.now() - t0);
      if (batch % 20 === 0) await client.query(`truncate bench_write_load_${i}`);
    }
  });
  let stopped: Promise<WriteLoadFigures> | undefined;
  return {
    mark() {
      commits = [];
      since = performance.now();
    },
    stop() {
      stopped ??= finish();
      return stopped;
    },
  };

  async function finish(): Promise<WriteLoadFigures> {
    stopping = true;
    await Promise.allSettled(loops);
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
    const sorted = [...commits].sort((a, b) => a - b);
    const seconds = (performance.now() - since) / 1000;
    return {
      connections: options.connections,
      rowsPerCommit: options.rows,
      commits: sorted.length,
      mbPerSec: (sorted.length * options.rows * ROW.length) / 1e6 / seconds,
      commitP50: percentile(sorted, 50),
      commitP95: percentile(sorted, 95),
    };
  }
}
