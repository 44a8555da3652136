/**
 * Helpers shared by the benchmarks that drive the real app (chat, checkout, shop): timing, /proc
 * figures, a bounded pool, a fetch client, the run's storage (a PGlite DATA_DIR or a fresh
 * PostgreSQL database), the real server in a child process, sign-up and listing through the API,
 * and room sockets. Not a benchmark itself (run-all does not list it).
 *
 * Only a list: each idea lives in its own file under support/ (those import each other directly,
 * never this file), so the benchmarks import everything from here.
 */
export * from './support/accounts.ts';
export * from './support/app-server.ts';
export * from './support/helpers.ts';
export * from './support/http-client.ts';
export * from './support/process-stats.ts';
export * from './support/room-socket.ts';
export * from './support/run.ts';
export * from './support/storage.ts';
