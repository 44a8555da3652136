import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/embedded.ts';
import { seedDemoIfEmpty } from './db/seed/index.ts';

async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
  if (config.env === 'production' && app.payments.name === 'local') {
    app.log.warn(
      'ALLOW_TEST_PAYMENTS=true: payments go to the offline test card provider; no card is charged',
    );
  }
  if (config.seedDemo) await seedDemoIfEmpty(app.database.db, config.dataDir, app.log);

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
