// The process's log: one JSON object a line on stdout, written by pino.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';

export type { Logger };

/**
 * `destination`: where the lines go (stdout when absent); tests give a stream of their own. Written
 * synchronously: an asynchronous destination made the farm read dearer (its write completions wake the
 * event loop; docs/performance.md). pino's own default for stdout is asynchronous, hence the explicit one.
 */
export function createLogger(level: Config['logLevel'], destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      // The level's name and an ISO time read better than pino's numbers; pid and host name are the
      // process manager's business.
      base: undefined,
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
