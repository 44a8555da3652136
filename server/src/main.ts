import { buildApp } from './app.ts';
import {
  DEMO_LIVE_STREAM,
  DEMO_REPLAY_ROOM,
  DEMO_REPLAY_SECONDS,
  DEMO_REPLAY_THUMBNAIL,
  seedDemoIfEmpty,
} from './cli/seed/index.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { countUnhandledRejections } from './platform/unhandled.ts';

/** Where an unhandled rejection is logged: stderr until the app (and its logger) exists. */
let logUnhandled = (reason: unknown, count: number) =>
  console.error(`Unhandled rejection #${count} (the process keeps running):`, reason);
countUnhandledRejections((reason, count) => logUnhandled(reason, count));

async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
  logUnhandled = (reason, count) =>
    app.log.error(
      { err: reason, unhandledRejections: count },
      'unhandled rejection; the process keeps running',
    );
  if (config.env === 'production' && app.payments.name === 'local') {
    app.log.warn(
      'ALLOW_TEST_PAYMENTS=true: payments go to the offline test card provider; no card is charged',
    );
  }
  if (config.seedDemo) {
    await seedDemoIfEmpty(app.database.db, config.dataDir, app.log);
    // The demo replay's video: made once (a few seconds of ffmpeg), not on the request path.
    void app.media
      .ensureDemoReplay({
        roomName: DEMO_REPLAY_ROOM,
        seconds: DEMO_REPLAY_SECONDS,
        thumbnail: DEMO_REPLAY_THUMBNAIL,
      })
      .catch((error) => {
        // Stopped while it was being made: it is made at the next start.
        if ((error as Error).name !== 'AbortError')
          app.log.warn({ err: error }, 'making the demo replay video failed');
      });
    // Every instance takes part; the one holding the room's publisher lease loops it (demo-live.ts).
    if (config.demoLive) {
      void app.media.startDemoLive(DEMO_LIVE_STREAM).catch((error) => {
        if ((error as Error).name !== 'AbortError')
          app.log.warn({ err: error }, 'starting the demo live room failed');
      });
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const started = performance.now();
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: draining');
    // The backstop: whatever still hangs (a database that does not answer) ends with the process.
    const force = setTimeout(() => {
      app.log.error('shutdown grace period over; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    try {
      const drain = await app.drain.run({
        graceMs: config.shutdownGraceMs,
        readinessDelayMs: config.shutdownReadinessDelayMs,
      });
      // Payment jobs, encoders, recordings (media), the bus, Redis and the database: the onClose hooks.
      await app.close();
      app.log.info({ ...drain, totalMs: Math.round(performance.now() - started) }, 'shut down');
      // 1 when connections had to be cut: the drain did not finish in time.
      process.exit(drain.drained ? 0 : 1);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`StreamShop is serving ${config.publicUrl}`);
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error('Failed to start:', error);
  }
  process.exit(1);
});
