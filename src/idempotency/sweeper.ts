// Deletes expired idempotency keys on a timer, in batches, so that no request pays for a large delete.
import type { Database } from '../db/client.js';
import type { Logger } from '../logger.js';
import { deleteExpiredKeys } from './store.js';

const SWEEP_INTERVAL_MS = 5 * 60_000;
/** Entries per delete statement: small enough that statements of requests run between two batches. */
export const SWEEP_BATCH = 500;

export interface Sweeper {
  /** Stops the timer and waits for a sweep under way to finish (before the database closes). */
  stop(): Promise<void>;
}

/** Deletes every expired entry, a batch per statement; returns how many. */
export async function sweepExpiredKeys(db: Database, shouldGoOn: () => boolean = () => true): Promise<number> {
  let deleted = 0;
  for (let batch = SWEEP_BATCH; batch === SWEEP_BATCH && shouldGoOn();) {
    batch = await deleteExpiredKeys(db, SWEEP_BATCH);
    deleted += batch;
  }
  return deleted;
}

/** Sweeps every few minutes; the timer keeps no process alive. */
export function startSweeper(db: Database, log: Logger): Sweeper {
  let stopped = false;
  let running: Promise<void> | undefined;
  const sweep = () => {
    // A sweep longer than the interval is not joined by a second one.
    running ??= sweepExpiredKeys(db, () => !stopped)
      .then(
        (deleted) => {
          if (deleted > 0) log.info({ deleted }, 'expired idempotency keys deleted');
        },
        (error: unknown) => log.error({ error: String(error) }, 'deleting expired idempotency keys failed'),
      )
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
      return running ?? Promise.resolve();
    },
  };
}
