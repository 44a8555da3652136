import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/embedded.ts';
import {
  DEMO_LIVE_STREAM,
  DEMO_REPLAY_ROOM,
  DEMO_REPLAY_SECONDS,
  DEMO_REPLAY_THUMBNAIL,
  seedDemoIfEmpty,
} from './db/seed/index.ts';

async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
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
      .catch((error) => app.log.warn({ err: error }, 'making the demo replay video failed'));
    // One looping publisher: only where no other instance could start a second (no REDIS_URL).
    if (config.demoLive && !config.redisUrl) {
      void app.media
        .startDemoLive(DEMO_LIVE_STREAM)
        .catch((error) => app.log.warn({ err: error }, 'starting the demo live room failed'));
    }
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    const force = setTimeout(() => {
      app.log.error('shutdown grace period over; exiting');
      process.exit(1);
    }, config.shutdownGraceMs);
    force.unref();
    await app.close();
    process.exit(0);
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
