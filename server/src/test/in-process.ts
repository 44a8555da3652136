/**
 * The server in the caller's own process, for the benchmarks: the app, its database, the seed and
 * the test app's config. It loads every module (about 1.5 s and 100 MB), so support.ts reaches it
 * only on demand (`loadInProcessServer()`), never as a static import.
 */
export { buildApp } from '../app.ts';
export { seedDemo, seedLargeCatalogue } from '../cli/seed/index.ts';
export { openDatabase } from '../db/client.ts';
export { redisBus } from '../platform/bus.ts';
export { newAccount, sessionCookie, testConfig } from './test-app.ts';
