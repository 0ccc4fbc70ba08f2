// Process entry: configuration → database (migrated) → app → listen; periodic clean-up; graceful shutdown.
// A reason not to start that the operator can act on is one line on stderr, exit code 1.
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, type Config } from './core/config.js';
import { openPglite, openPostgres, type DatabaseHandle } from './db/client.js';
import { createLogger } from './core/logger.js';
import { StartupError } from './core/startup-error.js';
import { createAppServer } from './app/node-server.js';
import { startChangePruning } from './resources/changes/pruning.js';
import { startSweeper } from './idempotency/sweeper.js';
import { startLapsedAccessSweeper } from './accounts/pending-access.js';

async function openDatabase(config: Config): Promise<DatabaseHandle> {
  const database = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir);
  await database.migrate();
  return database;
}

/** With REDIS_URL: its Redis answers (ioredis is loaded only then). */
async function checkRedisOf(config: Config): Promise<void> {
  if (config.redisUrl === undefined) return;
  const { checkRedis } = await import('./rate-limit/redis-check.js');
  await checkRedis(config.redisUrl);
}

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const log = (msg: string, extra: Record<string, unknown> = {}) => logger.info(extra, msg);
  // The app's modules load while the database opens on its own thread: start-up takes the longer of the two.
  const [database, { createApp, createDeps }] = await Promise.all([openDatabase(config), import('./app/app.js'), checkRedisOf(config)]);
  const app = createApp(createDeps(config, database, { log: logger }));
  const pruning = startChangePruning(database.db, config.changesRetentionDays, logger);
  const sweeper = startSweeper(database.db, logger);
  const lapsedAccess = startLapsedAccessSweeper(database.db, logger);
  const server = createAppServer(app.fetch, {
    errorsUrl: `${config.publicUrl}/errors`,
    hostname: config.host,
    sendTimeoutSeconds: config.sendTimeoutSeconds,
  });
  server.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES' && error.code !== 'EADDRNOTAVAIL') throw error;
    console.error(`Cannot listen on ${config.host}:${config.port} (${error.code}): stop what uses it, or choose another PORT or HOST.`);
    process.exit(1);
  });
  server.listen(config.port, config.host, () => {
    log('Akker is listening', {
      url: `http://${config.host}:${(server.address() as AddressInfo).port}`,
      database: config.databaseUrl
        ? 'postgresql'
        : config.dataDir === 'memory://'
          ? 'embedded (in memory)'
          : `embedded (${config.dataDir})`,
    });
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('stopping', { signal });
    // Stop accepting and let the requests in flight finish (their keep-alive connections close as they
    // go idle); then close the database. A client that stalls mid-request is cut off at the timeout.
    const deadline = setTimeout(() => {
      log('shutdown timeout: closing the connections still open', { seconds: config.shutdownTimeoutSeconds });
      if ('closeAllConnections' in server) server.closeAllConnections();
    }, config.shutdownTimeoutSeconds * 1000);
    // close() closes the connections idle at this moment; the others once their requests are answered.
    const closeIdle = setInterval(() => 'closeIdleConnections' in server && server.closeIdleConnections(), 50);
    server.close(async () => {
      clearTimeout(deadline);
      clearInterval(closeIdle);
      try {
        await pruning.stop();
        await sweeper.stop();
        await lapsedAccess.stop();
        await database.close();
      } catch (error) {
        logger.error({ error: String(error) }, 'the database did not close cleanly');
        process.exit(1);
      }
      log('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError) {
    console.error(error.message);
  } else {
    // A fault of the program: one JSON line, with its stack, for the report.
    createLogger('fatal').fatal({ err: error }, 'Akker could not start');
  }
  process.exit(1);
});
