// Process entry: configuration → database (migrated) → app → listen; graceful shutdown.
import type { AddressInfo } from 'node:net';
import { createApp, createDeps } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openPglite, openPostgres } from './db/client.js';
import { DataDirLockedError } from './db/lock.js';
import { createAppServer } from './http/node-server.js';

const log = (msg: string, extra: Record<string, unknown> = {}) => console.log(JSON.stringify({ level: 'info', msg, ...extra }));

async function main() {
  const config = loadConfig();
  const database = config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir);
  await database.migrate();
  const app = createApp(createDeps(config, database));
  const server = createAppServer(app.fetch, { errorsUrl: `${config.publicUrl}/errors`, hostname: config.host });
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
        await database.close();
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', msg: 'the database did not close cleanly', error: String(error) }));
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
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
