// The simplified outline of a field stored before it was computed on write (migration 0018) is filled in
// here, on a timer, a batch per transaction: a read never has to simplify, and no request pays for it.
// The transaction tells the fields' updated_at trigger so (`akker.backfilling_outlines`), so a field
// keeps its updated_at, its ETag and its change feed: nothing a reader sees changes.
import { sql } from 'drizzle-orm';
import { deleteInBatches, startBatchedCleanup, type BatchedCleanup } from '../../db/batched-cleanup.js';
import { queryRows, type Database } from '../../db/client.js';
import type { FieldGeometry } from '../../db/schema.js';
import type { Logger } from '../../core/logger.js';
import { simplifyGeometry } from './simplify.js';

/** Fields a transaction: a simplification of the largest takes a few milliseconds. */
const BATCH = 50;
/** Rows written by a process of an older version (a rolling upgrade) are found on the next round. */
const INTERVAL_MS = 10 * 60_000;

/** Simplifies up to `limit` outlines that have none stored; answers how many. Processes sharing a server skip each other's rows. */
export function backfillOutlinesOnce(db: Database, limit: number): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('akker.backfilling_outlines', 'on', true)`);
    const rows = await queryRows<{ b_id: string; b_geometry: FieldGeometry }>(
      tx,
      sql`select b_id, b_geometry from fields where b_geometry_simplified is null limit ${limit} for update skip locked`,
    );
    if (rows.length === 0) return 0;
    const outlines = rows.map((row) => sql`(${row.b_id}, ${JSON.stringify(simplifyGeometry(row.b_geometry))}::jsonb)`);
    await tx.execute(sql`
      update fields set b_geometry_simplified = outline.geometry
      from (values ${sql.join(outlines, sql`, `)}) as outline(b_id, geometry)
      where fields.b_id = outline.b_id`);
    return rows.length;
  });
}

/** Fills in every missing outline, batch after batch. */
export const backfillOutlines = (db: Database): Promise<number> => deleteInBatches((limit) => backfillOutlinesOnce(db, limit), BATCH);

/** Backfills now and every INTERVAL_MS (a round that finds nothing is one short statement). */
export const startOutlineBackfill = (db: Database, log: Logger): BatchedCleanup =>
  startBatchedCleanup({
    what: 'field outlines stored without their simplified outline',
    done: 'simplified',
    deleteBatch: (limit) => backfillOutlinesOnce(db, limit),
    batchSize: BATCH,
    intervalMs: INTERVAL_MS,
    atStart: true,
    log,
  });
