// Rows that have had their time (expired idempotency keys, change-feed entries past retention) are
// deleted on a timer, a batch per statement: no request pays for a large delete, and the statements
// of requests run between two batches.
import type { Logger } from '../core/logger.js';

/** Deletes up to `limit` rows; answers how many it deleted. */
export type DeleteBatch = (limit: number) => Promise<number>;

/** Runs `deleteBatch` until a batch comes back short, or `shouldGoOn` says to stop; answers how many rows went. */
export async function deleteInBatches(
  deleteBatch: DeleteBatch,
  batchSize: number,
  shouldGoOn: () => boolean = () => true,
): Promise<number> {
  let deleted = 0;
  for (let batch = batchSize; batch === batchSize && shouldGoOn();) {
    batch = await deleteBatch(batchSize);
    deleted += batch;
  }
  return deleted;
}

export interface BatchedCleanupOptions {
  /** What is deleted, for the log ("expired idempotency keys"). */
  what: string;
  /** What is done to them, for the log: "deleted" unless a batch does something else to rows ("simplified"). */
  done?: string;
  deleteBatch: DeleteBatch;
  batchSize: number;
  intervalMs: number;
  /** Runs once at start as well, not only after the first interval. */
  atStart: boolean;
  log: Pick<Logger, 'info' | 'error'>;
}

export interface BatchedCleanup {
  /** Stops the timer and waits for a run under way to finish its batch (before the database closes). */
  stop(): Promise<void>;
}

/** Cleans up every `intervalMs`; the timer keeps no process alive. */
export function startBatchedCleanup({
  what,
  done = 'deleted',
  deleteBatch,
  batchSize,
  intervalMs,
  atStart,
  log,
}: BatchedCleanupOptions): BatchedCleanup {
  let stopped = false;
  let running: Promise<void> | undefined;
  const run = () => {
    // A run that outlasts the interval is not joined by a second one.
    running ??= deleteInBatches(deleteBatch, batchSize, () => !stopped)
      .then(
        (deleted) => {
          if (deleted > 0) log.info({ [done]: deleted }, `${what} ${done}`);
        },
        (error: unknown) => log.error({ error: String(error) }, `${what}: a batch failed`),
      )
      .finally(() => {
        running = undefined;
      });
  };
  if (atStart) run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
      return running ?? Promise.resolve();
    },
  };
}
