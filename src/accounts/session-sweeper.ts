// Expired browser sessions, deleted on a timer in batches (db/batched-cleanup.ts). A lookup never
// takes an expired session, so this only keeps the table from growing with every sign-in.
import { deleteInBatches, startBatchedCleanup, type BatchedCleanup } from '../db/batched-cleanup.js';
import type { Database } from '../db/client.js';
import type { Logger } from '../core/logger.js';
import { deleteExpiredSessions } from './users-store.js';

const SWEEP_INTERVAL_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

/** Deletes every expired session, a batch per statement; returns how many. */
export const sweepExpiredSessions = (db: Database): Promise<number> =>
  deleteInBatches((limit) => deleteExpiredSessions(db, limit), SWEEP_BATCH);

/** Sweeps at start and every few minutes. */
export const startSessionSweeper = (db: Database, log: Logger): BatchedCleanup =>
  startBatchedCleanup({
    what: 'expired sessions',
    deleteBatch: (limit) => deleteExpiredSessions(db, limit),
    batchSize: SWEEP_BATCH,
    intervalMs: SWEEP_INTERVAL_MS,
    atStart: true,
    log,
  });
