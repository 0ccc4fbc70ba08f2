// At start-up: does REDIS_URL name a Redis that answers? A wrong one stops the process with one line,
// rather than leaving every process to count its rate limits alone without anyone noticing.
import { StartupError, withoutPassword } from '../core/startup-error.js';
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
  // connect() rejects with only "Connection is closed."; the reason is the connection's last error.
  let lastError: unknown;
  connection.on('error', (error) => (lastError = error));
  try {
    await connection.connect();
    await connection.ping();
  } catch (error) {
    const cause = lastError ?? error;
    const reason = (cause as { code?: unknown }).code ?? (cause instanceof Error ? cause.message : String(cause));
    throw new StartupError(
      `Redis at ${withoutPassword(url)} does not answer (${String(reason)}): start it, correct REDIS_URL, or unset REDIS_URL to keep the rate limits in this process alone.`,
    );
  } finally {
    connection.disconnect();
  }
}
