// One page of a list and the total, paged in SQL and read in one snapshot.
import { count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { SelectedRow } from './records.js';
import type { Database } from './client.js';
import { firstRow } from './first-row.js';

/** Which page of a list: how many items at most, after how many. */
export interface PageQuery {
  limit: number;
  offset: number;
}

export async function countRows(db: Database, table: PgTable, where: SQL | undefined): Promise<number> {
  return firstRow(await db.select({ total: count() }).from(table).where(where), 'count').total;
}

/**
 * Runs the statements of `read` in one snapshot, so that a page and its total agree with each other
 * whatever commits while they run.
 */
export function inOneSnapshot<T>(db: Database, read: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** One page of `columns` of the rows of `table` that match `where`, in `orderBy` order, and their total. */
export function selectPage<TColumns extends Record<string, PgColumn | SQL.Aliased>>(
  db: Database,
  table: PgTable,
  columns: TColumns,
  where: SQL | undefined,
  orderBy: PgColumn[],
  page: PageQuery,
): Promise<{ data: SelectedRow<TColumns>[]; total: number }> {
  const selection: Record<string, PgColumn | SQL.Aliased> = columns;
  return inOneSnapshot(db, async (tx) => {
    const [rows, total] = await Promise.all([
      tx
        .select(selection)
        .from(table)
        .where(where)
        .orderBy(...orderBy)
        .limit(page.limit)
        .offset(page.offset),
      countRows(tx, table, where),
    ]);
    // The rows of `selection`, as drizzle types them for the concrete `columns` of a caller.
    return { data: rows as SelectedRow<TColumns>[], total };
  });
}
