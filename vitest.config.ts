import { defineConfig } from 'vitest/config';

function serverProject(name: string, env: Record<string, string>) {
  return {
    test: {
      name,
      root: 'server',
      include: ['src/**/*.test.ts'],
      env,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}

/** One runner for every workspace; `npm test` runs them all. */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: 'contract', include: ['src/**/*.test.ts'] } },
      // The repository's own tooling: the import rules `npm run lint` enforces.
      { test: { name: 'tooling', root: '.', include: ['scripts/**/*.test.ts'] } },
      // The server suite runs on embedded PGlite, and again on PostgreSQL when one is given.
      serverProject('server', { TEST_DATABASE_URL: '' }),
      ...(process.env.TEST_DATABASE_URL
        ? [serverProject('server-postgres', { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL })]
        : []),
      {
        test: {
          name: 'web',
          root: 'web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.e2e.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
