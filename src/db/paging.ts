// One page of a list and the total, paged in SQL and read in one snapshot.
import { count, sql, type SQL } from 'drizzle-orm';
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

/** The total of the rows of `table` that match `where`, as a column of a statement reading a page of them: computed once, in its snapshot. */
const totalOf = (table: PgTable, where: SQL | undefined) =>
  sql<number>`(select count(*) from ${table}${where ? sql` where ${where}` : sql``})`.mapWith(Number).as(TOTAL);
const TOTAL = 'page_total';

/** A table whose one row per row of the listed table the page's columns also read from (a product's name, say). */
export interface JoinedTable {
  table: PgTable;
  on: SQL;
}

/**
 * One page of `columns` of the rows of `table` that match `where`, in `orderBy` order, and their total:
 * one statement, the total a column of each row. A page without rows carries no total: then the page
 * and the total are read again, in one snapshot.
 */
export async function selectPage<TColumns extends Record<string, PgColumn | SQL.Aliased>>(
  db: Database,
  table: PgTable,
  columns: TColumns,
  where: SQL | undefined,
  orderBy: PgColumn[],
  page: PageQuery,
  joined?: JoinedTable,
): Promise<{ data: SelectedRow<TColumns>[]; total: number }> {
  const selection: Record<string, PgColumn | SQL.Aliased> = columns;
  const pageOf = (tx: Database, total?: SQL.Aliased<number>) => {
    const query = tx
      .select(total ? { ...selection, [TOTAL]: total } : selection)
      .from(table)
      .$dynamic();
    return (joined ? query.innerJoin(joined.table, joined.on) : query)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset);
  };
  // The rows of `selection`, as drizzle types them for the concrete `columns` of a caller.
  const read = async (tx: Database) => (await pageOf(tx)) as SelectedRow<TColumns>[];
  const rows = (await pageOf(db, totalOf(table, where))) as Array<SelectedRow<TColumns> & { [TOTAL]: number }>;
  const [first] = rows;
  if (first === undefined) return pageWithTotal(db, table, where, read);
  return { data: rows.map(({ [TOTAL]: _total, ...row }) => row as unknown as SelectedRow<TColumns>), total: first[TOTAL] };
}
