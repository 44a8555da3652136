/**
 * Runs embedded PostgreSQL (PGlite) in its own thread and serves it on a unix socket, so the
 * server talks to it through node-postgres like to any PostgreSQL and a slow query never blocks
 * the event loop of the HTTP server.
 */
// Plain JavaScript on purpose: a worker thread starts without the TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** dataDir: folder of the database files (undefined keeps it in memory); socketPath: where to listen. */
const { dataDir, socketPath } = workerData;
const port = parentPort;
if (!port) throw new Error('embedded-worker must run as a worker thread');

try {
  const db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 16 });
  await server.start();
  port.postMessage({ type: 'ready' });
  port.on('message', async (message) => {
    if (message.type !== 'stop') return;
    await server.stop();
    await db.close();
    port.postMessage({ type: 'stopped' });
  });
} catch (error) {
  port.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
