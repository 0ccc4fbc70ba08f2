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

/**
 * A page read by `read` and the total of the rows of `table` that match `where`, in one snapshot, so
 * that the two agree whatever commits meanwhile; `read` may query on in the snapshot.
 */
export function pageWithTotal<T>(db: Database, table: PgTable, where: SQL | undefined, read: (tx: Database) => Promise<T[]>) {
  return inOneSnapshot(db, async (tx) => {
    const [data, total] = await Promise.all([read(tx), countRows(tx, table, where)]);
    return { data, total };
  });
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
  // The rows of `selection`, as drizzle types them for the concrete `columns` of a caller.
  const read = async (tx: Database) =>
    (await tx
      .select(selection)
      .from(table)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset)) as SelectedRow<TColumns>[];
  return pageWithTotal(db, table, where, read);
}
