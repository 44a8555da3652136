/**
 * The chat bench's scenarios: which servers each one starts (bench/chat/server.ts), and what a
 * run of one measures (ScenarioResult).
 */
import { randomBytes } from 'node:crypto';
import { createThrowawayDatabase } from '../../server/src/test/support.ts';
import type { Options } from './options.ts';
import { type ServerHandle, startServer } from './server.ts';
import { startWriteLoad, type WriteLoad, type WriteLoadFigures } from './write-load.ts';

export interface Scenario {
  key: string;
  label: string;
  /** Starts the server(s); the first is where the senders connect. */
  start(senders: number): Promise<{ servers: ServerHandle[]; cleanup(): Promise<void>; load?: WriteLoad }>;
}

export interface ScenarioResult {
  key: string;
  label: string;
  instances: number;
  viewers: number;
  senders: number;
  messages: number;
  expected: number;
  delivered: number;
  lost: number;
  duplicates: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** p95 of the viewers on each instance, in instance order. */
  p95ByInstance: number[];
  /** Send → the server's message timestamp (stored in the database), per message. */
  acceptP50: number;
  acceptP95: number;
  deliveriesPerSec: number;
  measuredSec: number;
  serverCpuPct: number[];
  /** Server CPU time (all instances) per 1,000 deliveries: less sensitive to other load than latency. */
  serverCpuMsPer1k: number;
  serverRssPeakMb: number[];
  serverRssIdleMb: number[];
  loadGeneratorCpuPct: number;
  connectSec: number;
  settleSec: number;
  viewerCountFramesOnConnect: number;
  errors: Record<string, number>;
  unexpectedCloses: number;
  setupMs?: number;
  /** The concurrent write load during the measured run (busy-pg). */
  writeLoad?: WriteLoadFigures;
}

function createDatabase() {
  return createThrowawayDatabase(
    process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    'chatbench',
  );
}

/**
 * One instance on a fresh PostgreSQL database, quiet and under a write load; with `source`, the
 * server of another commit (the before rows).
 */
export function postgresScenarios(
  options: Options,
  before: { source: string; commit: string } | undefined,
): Scenario[] {
  const suffix = before ? '-before' : '';
  const at = before ? ` (before: ${before.commit})` : '';
  const start = (busy: boolean): Scenario['start'] => {
    return async (senders) => {
      const database = await createDatabase();
      let server: ServerHandle | undefined;
      try {
        server = await startServer(
          { kind: 'app', senders, databaseUrl: database.url, ...(before ? { source: before.source } : {}) },
          `app (PG${busy ? ', busy' : ''})${at}`,
        );
        const load = busy ? await startWriteLoad(database.url, options.writeLoad) : undefined;
        const handle = server;
        return {
          servers: [handle],
          ...(load ? { load } : {}),
          async cleanup() {
            await handle.stop();
            await database.drop();
          },
        };
      } catch (error) {
        await server?.stop();
        await database.drop();
        throw error;
      }
    };
  };
  const load = `${options.writeLoad.connections} × ${options.writeLoad.rows} rows of 2 kB per commit`;
  return [
    {
      key: `single-pg${suffix}`,
      label: `app, 1 instance, PostgreSQL, in-memory bus${at}`,
      start: start(false),
    },
    {
      key: `busy-pg${suffix}`,
      label: `app, 1 instance, PostgreSQL under a write load (${load})${at}`,
      start: start(true),
    },
  ];
}

export function scenarios(options: Options): Scenario[] {
  const floor = (encodeOnce: boolean): Scenario['start'] => {
    return async () => {
      const server = await startServer({ kind: 'floor', encodeOnce }, 'floor');
      return { servers: [server], cleanup: () => server.stop() };
    };
  };
  return [
    { key: 'floor', label: 'floor: plain ws, stringify once (string)', start: floor(false) },
    { key: 'floor-buffer', label: 'floor: plain ws, encoded once (Buffer)', start: floor(true) },
    {
      key: 'single',
      label: 'app, 1 instance, PGlite, in-memory bus',
      async start(senders) {
        const server = await startServer({ kind: 'app', senders }, 'app (PGlite)');
        return { servers: [server], cleanup: () => server.stop() };
      },
    },
    ...postgresScenarios(options, undefined),
    {
      key: 'redis',
      label: 'app, 2 instances, PostgreSQL + Redis',
      async start(senders) {
        const redis = {
          url: process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379',
          prefix: `streamshop-chatbench-${randomBytes(5).toString('hex')}:`,
        };
        const database = await createDatabase();
        const servers: ServerHandle[] = [];
        const cleanup = async () => {
          await Promise.all(servers.map((s) => s.stop()));
          await database.drop();
        };
        try {
          // A first: it runs the migrations and makes the accounts and the room.
          servers.push(
            await startServer({ kind: 'app', senders, databaseUrl: database.url, redis }, 'app instance A'),
          );
          servers.push(
            await startServer(
              { kind: 'app', senders: 0, databaseUrl: database.url, redis },
              'app instance B',
            ),
          );
          return { servers, cleanup };
        } catch (error) {
          await cleanup();
          throw error;
        }
      },
    },
  ];
}

/** The before rows just ahead of this checkout's of the same kind. */
export function withBefore(list: Scenario[], before: Scenario[]): Scenario[] {
  return list.flatMap((scenario) => [...before.filter((b) => b.key === `${scenario.key}-before`), scenario]);
}
