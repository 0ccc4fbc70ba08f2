// At start-up: does REDIS_URL name a Redis that answers? A wrong one stops the process with one line,
// rather than leaving every process to count its rate limits alone without anyone noticing.
import { StartupError, withoutPassword } from '../../startup-error.js';
import { Redis } from './ioredis.js';

const CONNECT_TIMEOUT_MS = 3000;

export async function checkRedis(url: string): Promise<void> {
  const connection = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // The failure is reported by connect() or ping() below; without a listener ioredis would log it too.
  connection.on('error', () => {});
  try {
    await connection.connect();
    await connection.ping();
  } catch (error) {
    const reason = (error as { code?: unknown }).code ?? (error instanceof Error ? error.message : String(error));
    throw new StartupError(
      `Redis at ${withoutPassword(url)} does not answer (${String(reason)}): start it, correct REDIS_URL, or unset REDIS_URL to keep the rate limits in this process alone.`,
    );
  } finally {
    connection.disconnect();
  }
}
