import { defineConfig } from 'vitest/config';

/**
 * Server test files whose subject is not SQL: parsers, protocols and pure functions (no database
 * at all), video through ffmpeg and storage faults (the rooms' SQL they touch is the streams and
 * media tests' on both databases), Redis outages, and PGlite's own data-directory lock. The
 * PostgreSQL pass leaves them out; every other server file runs on both databases.
 */
const NOT_SQL = [
  'src/config.test.ts',
  'src/db/data-dir-lock.test.ts',
  'src/modules/media/containers/**',
  'src/modules/media/delivery/hls/{edges,ll-playlist,storage-faults}.test.ts',
  'src/modules/media/delivery/ws/relay.test.ts',
  'src/modules/media/ingest/{demo-clip,plan-resolution}.test.ts',
  'src/modules/media/ingest/rtmp/{bounded-chunks,ingest-limits,publish-session,server,server-ffmpeg}.test.ts',
  'src/modules/media/pipeline/{playlist,segmenter,working-folders}.test.ts',
  'src/modules/media/replays/demo-replay.test.ts',
  'src/modules/media/restream/{publisher,restream}.test.ts',
  'src/modules/auctions/auction-redis-outage.test.ts',
  // The resume after kill -9 is the same code on both; the fan-out's SQL runs on both in notifications.test.ts.
  'src/modules/notifications/fanout-crash.test.ts',
  'src/modules/moderation/blocked-words.test.ts',
  'src/platform/{address-bucket,egress,logger,rate-limit,redis-fallback,redis-outage,storage,token-bucket}.test.ts',
  'src/platform/payments/{local,stripe}.test.ts',
];

/** Page unit tests that replace a module (vi.mock): each runs with a module graph of its own. */
const WEB_MOCKS = ['src/features/room/auction-bidder-card.test.tsx'];

/**
 * The browser specs that carry live video (a fake camera, an RTMP encoder, the always-live demo
 * room): they run after the page specs, one file at a time (a project with a later groupOrder).
 * `npm test` runs both beside the server and page unit tests (scripts/test-lanes.mjs, ADR 0026),
 * so the video specs come when the other lane is ending.
 */
export const VIDEO_SPECS = [
  'live.e2e.test.ts',
  'live-vp8.e2e.test.ts',
  'live-two-instances.e2e.test.ts',
  'moderation.e2e.test.ts',
  'obs.e2e.test.ts',
  'phone-room.e2e.test.ts',
  'shop.e2e.test.ts',
  'way-in.e2e.test.ts',
];

/** Browser specs: one file at a time, after the other projects when one `vitest run` runs them all. */
function e2eProject(name: string, files: { include?: string[]; exclude?: string[]; groupOrder: number }) {
  return {
    test: {
      name,
      root: 'e2e',
      include: files.include ?? ['**/*.e2e.test.ts'],
      exclude: ['**/node_modules/**', ...(files.exclude ?? [])],
      testTimeout: 60_000,
      hookTimeout: 120_000,
      fileParallelism: false,
      // As for the server: one module cache for the specs run one after another.
      isolate: false,
      sequence: { groupOrder: files.groupOrder },
    },
  };
}

function serverProject(name: string, env: Record<string, string>, exclude: string[] = []) {
  return {
    test: {
      name,
      root: 'server',
      include: ['src/**/*.test.ts'],
      exclude: ['**/node_modules/**', ...exclude],
      env,
      // The files of one worker share its module cache: the app's module graph is imported once per
      // worker rather than once per file (~3 s each, 109 files; docs/benchmarks.md). The files keep
      // nothing in module state that another reads: each builds its own app, database and servers.
      isolate: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}

/**
 * One runner for every workspace. Most server tests wait on sockets, child processes and timers
 * rather than the CPU, so two files run at once even on two cores (Vitest's default there is one;
 * three were faster, 1,135 s, but left timing-bound tests a thinner margin on a loaded machine:
 * docs/benchmarks.md). One `vitest run` runs the browser specs after everything else, one file at
 * a time; `npm test` (scripts/test-lanes.mjs, ADR 0026) runs them in a second Vitest process
 * beside the other projects instead.
 */
/**
 * TEST_TIMINGS_FILE: also write Vitest's JSON report there (every file's and test's duration), to
 * see where the suite's time goes (docs/benchmarks.md, "The test suite").
 */
const timings = process.env.TEST_TIMINGS_FILE;

export default defineConfig({
  test: {
    maxWorkers: 2,
    ...(timings ? { reporters: ['default', ['json', { outputFile: timings }]] } : {}),
    projects: [
      { test: { name: 'contract', root: 'contract', include: ['src/**/*.test.ts'] } },
      // The repository's own tooling: the import rules and the file-size check `npm run lint` enforces.
      { test: { name: 'tooling', root: '.', include: ['scripts/**/*.test.ts'] } },
      // The server suite runs on embedded PGlite, and again on PostgreSQL when one is given.
      serverProject('server', { TEST_DATABASE_URL: '' }),
      ...(process.env.TEST_DATABASE_URL
        ? [serverProject('server-postgres', { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL }, NOT_SQL)]
        : []),
      // The page unit tests share one module cache per worker, as the server's do (jsdom and React
      // imported once per worker rather than once per file: 94 s → 21 s alone, docs/benchmarks.md).
      // A file that replaces a module with vi.mock needs a module graph of its own: WEB_MOCKS.
      {
        test: {
          name: 'web',
          root: 'web',
          environment: 'jsdom',
          isolate: false,
          setupFiles: ['src/test/setup.ts'],
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', ...WEB_MOCKS],
        },
      },
      {
        test: {
          name: 'web-mocks',
          root: 'web',
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          include: WEB_MOCKS,
        },
      },
      // The browser specs: those that drive pages, then those that carry live video (VIDEO_SPECS).
      e2eProject('e2e', { exclude: VIDEO_SPECS, groupOrder: 1 }),
      e2eProject('e2e-video', { include: VIDEO_SPECS, groupOrder: 2 }),
    ],
  },
});
