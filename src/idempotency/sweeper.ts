// Expired idempotency keys, deleted on a timer in batches (db/batched-cleanup.ts).
import { deleteInBatches, startBatchedCleanup, type BatchedCleanup } from '../db/batched-cleanup.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../core/logger.js';
import { deleteExpiredKeys } from './store.js';

const SWEEP_INTERVAL_MS = 5 * 60_000;
/** Entries per delete statement: small enough that statements of requests run between two batches. */
const SWEEP_BATCH = 500;

/** Deletes every expired entry, a batch per statement; returns how many. */
export const sweepExpiredKeys = (db: Database): Promise<number> => deleteInBatches((limit) => deleteExpiredKeys(db, limit), SWEEP_BATCH);

/** Sweeps every few minutes. */
export const startSweeper = (db: Database, log: Logger): BatchedCleanup =>
  startBatchedCleanup({
    what: 'expired idempotency keys',
    deleteBatch: (limit) => deleteExpiredKeys(db, limit),
    batchSize: SWEEP_BATCH,
    intervalMs: SWEEP_INTERVAL_MS,
    atStart: false,
    log,
  });
