// Retention of the change feeds: entries older than the retention period are deleted on a timer, in
// batches (db/batched-cleanup.ts). Each farm's horizon remembers the last position pruned, so
// that a cursor before it is refused (410) instead of silently missing entries.
import { sql } from 'drizzle-orm';
import { deleteInBatches, startBatchedCleanup, type BatchedCleanup } from '../../db/batched-cleanup.js';
import { queryRows, type Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import type { Logger } from '../../core/logger.js';

const BATCH = 1000;
const INTERVAL_MS = 10 * 60_000;

/**
 * Deletes up to `limit` entries older than `retentionDays` and moves the horizons of their farms on, in one
 * statement (one transaction); returns how many it deleted. Processes sharing a server skip each other's rows.
 */
async function pruneChangesOnce(db: Database, retentionDays: number, limit: number): Promise<number> {
  const rows = await queryRows<{ pruned: number }>(
    db,
    sql`
    with batch as (
      select change_id from farm_changes
      where changed_at < now() - make_interval(days => ${retentionDays})
      order by changed_at
      limit ${limit}
      for update skip locked
    ), gone as (
      delete from farm_changes c using batch where c.change_id = batch.change_id returning c.b_id_farm, c.position
    ), horizons as (
      insert into farm_change_horizons (b_id_farm, pruned_through)
      select b_id_farm, max(position) from gone group by b_id_farm
      on conflict (b_id_farm) do update
        set pruned_through = greatest(farm_change_horizons.pruned_through, excluded.pruned_through)
    )
    select count(*)::int as pruned from gone`,
  );
  return firstRow(rows, 'pruning of farm_changes').pruned;
}

/** Prunes batch after batch until none is left; each batch is its own statement, so requests run in between. */
export const pruneChanges = (db: Database, retentionDays: number): Promise<number> =>
  deleteInBatches((limit) => pruneChangesOnce(db, retentionDays, limit), BATCH);

/** Prunes now and every INTERVAL_MS. */
export const startChangePruning = (db: Database, retentionDays: number, log: Logger): BatchedCleanup =>
  startBatchedCleanup({
    what: 'change-feed entries past retention',
    deleteBatch: (limit) => pruneChangesOnce(db, retentionDays, limit),
    batchSize: BATCH,
    intervalMs: INTERVAL_MS,
    atStart: true,
    log,
  });
