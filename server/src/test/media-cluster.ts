import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort } from './ports.ts';
import { type S3Server, startS3Server } from './s3-server.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from './throwaway-database.ts';

export interface ClusterInstance {
  name: string;
  server: ServerProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Its RTMP listener: rtmp://127.0.0.1:<rtmpPort>/live/<stream key>. */
  rtmpPort: number;
  /** SIGKILL: no shutdown, nothing flushed, nothing released; resolves once it has exited. */
  kill(): Promise<void>;
}

export interface MediaCluster {
  /** Another instance of the real server on the cluster's database, Redis and bucket. */
  start(name: string): Promise<ClusterInstance>;
  /** A query on the cluster's database (what the test reads or moves behind the API). */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** Every line every instance printed so far, killed ones included. */
  logLines(): string[];
  close(): Promise<void>;
}

/**
 * Instances of the real server (server/src/main.ts, each in its own process with its own DATA_DIR)
 * as in a deployment behind a load balancer: one fresh PostgreSQL database on `databaseServerUrl`,
 * one Redis, one S3 bucket (s3rver on 127.0.0.1), each instance with an RTMP port of its own. Logs
 * at info, kept in memory. The first instance started migrates the database.
 */
export async function startMediaCluster(options: {
  databaseServerUrl: string;
  redisUrl: string;
  label: string;
  /** Settings every instance gets on top of the cluster's (e.g. DEMO_LIVE and SEED_DEMO on). */
  env?: Record<string, string>;
}): Promise<MediaCluster> {
  let database: ThrowawayDatabase | undefined;
  let s3: S3Server | undefined;
  let pool: pg.Pool | undefined;
  const instances: ClusterInstance[] = [];
  const close = async () => {
    await Promise.allSettled(instances.map((instance) => instance.server.stop()));
    await pool?.end().catch(() => {});
    await s3?.stop().catch(() => {});
    await database?.drop().catch(() => {});
  };
  try {
    [database, s3] = await Promise.all([
      createThrowawayDatabase(options.databaseServerUrl, options.label),
      startS3Server(),
    ]);
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    // The teardown drops the database with (force): see checkout-drill.ts.
    pool.on('error', () => {});
  } catch (error) {
    await close();
    throw error;
  }
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: redisUrlForThisRun(options.redisUrl),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'info',
    DEMO_LIVE: 'false',
    S3_BUCKET: s3.settings.bucket,
    S3_REGION: s3.settings.region,
    S3_ENDPOINT: s3.settings.endpoint ?? '',
    S3_ACCESS_KEY_ID: s3.settings.accessKeyId ?? '',
    S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey ?? '',
    ...options.env,
  };
  const queries = pool;
  return {
    async start(name) {
      const rtmpPort = await freePort();
      const server = await startServerProcess({
        env: { ...env, RTMP_PORT: String(rtmpPort), RTMP_URL: `rtmp://127.0.0.1:${rtmpPort}/live` },
        stdio: 'pipe',
      });
      const instance: ClusterInstance = {
        name,
        server,
        url: server.url,
        rtmpPort,
        async kill() {
          const { proc } = server;
          if (proc.exitCode !== null || proc.signalCode !== null) return;
          const exited = new Promise((resolve) => proc.once('exit', resolve));
          proc.kill('SIGKILL');
          await exited;
        },
      };
      instances.push(instance);
      return instance;
    },
    async query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      return (await queries.query<T>(text, values)).rows;
    },
    logLines: () => instances.flatMap((instance) => instance.server.output().split('\n')),
    close,
  };
}

/**
 * The server's Redis keys (rate limits) all start with `streamshop:`; a database of their own keeps
 * them apart from other runs on the same Redis (pub/sub channels carry the room's unique name).
 */
function redisUrlForThisRun(redisUrl: string): string {
  const url = new URL(redisUrl);
  if (url.pathname.length <= 1) url.pathname = `/${1 + (process.pid % 15)}`;
  return url.toString();
}
