// The process's log: one JSON object a line on stdout, written by pino.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * `destination`: where the lines go; tests give a stream of their own. By default stdout, written
 * asynchronously: a request does not wait for the write, and lines that come together leave in one
 * write. pino writes out what is still buffered when the process exits.
 */
export function createLogger(
  level: Config['logLevel'],
  destination: DestinationStream = pino.destination({ dest: 1, sync: false }),
): Logger {
  return pino(
    {
      level,
      // The level's name and an ISO time read better than pino's numbers; pid and host name are the
      // process manager's business.
      base: undefined,
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
