// One page of a list and the total, paged in SQL and read in one snapshot.
import { and, count, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { SelectedRow } from './records.js';
import type { Database } from './client.js';
import { firstRow } from './first-row.js';
import { plannedOnce } from './planned-once.js';

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

/**
 * The total of the rows of `table` that match `where`, as a column of a statement reading a page of them:
 * computed once, in its snapshot. It marks the statement planned once: a page's statement takes as many
 * shapes as its list has filters.
 */
const totalOf = (table: PgTable, where: SQL | undefined) =>
  sql<number>`${plannedOnce(sql`(select count(*) from ${table}${where ? sql` where ${where}` : sql``})`)}`.mapWith(Number).as(TOTAL);
const TOTAL = 'page_total';

/** A table whose one row per row of the listed table the page's columns also read from (a product's name, say). */
export interface JoinedTable {
  table: PgTable;
  on: SQL;
}

/**
 * The reader's access check, folded into the statement that reads the page (access/roles.ts makes it):
 * `columns` are selected with every row, `allowed` among them and as a condition, so no row is read
 * that the reader may not see. After the read, `row` holds the columns' values, for the caller to settle.
 */
export interface PageGate {
  columns: Record<string, SQL.Aliased>;
  allowed: SQL;
  row?: Record<string, unknown>;
}
const ALLOWED = 'gate_allowed';

/**
 * One page of `columns` of the rows of `table` that match `where`, in `orderBy` order, and their total:
 * one statement, the total a column of each row, planned once. With a `gate`, only where it allows. A page
 * without rows carries no total: then the gate and the total are read in a second statement, and when
 * that total is not 0 (a page past the end) the page and the total are read again, in one snapshot.
 */
export async function selectPage<TColumns extends Record<string, PgColumn | SQL.Aliased>>(
  db: Database,
  table: PgTable,
  columns: TColumns,
  where: SQL | undefined,
  orderBy: PgColumn[],
  page: PageQuery,
  joined?: JoinedTable,
  gate?: PageGate,
): Promise<{ data: SelectedRow<TColumns>[]; total: number }> {
  const selection: Record<string, PgColumn | SQL.Aliased> = columns;
  const gateColumns = gate ? { ...gate.columns, [ALLOWED]: sql<boolean>`${gate.allowed}`.as(ALLOWED) } : {};
  const pageOf = (tx: Database, extra?: Record<string, SQL.Aliased>) => {
    const query = tx
      .select(extra ? { ...selection, ...extra } : selection)
      .from(table)
      .$dynamic();
    return (joined ? query.innerJoin(joined.table, joined.on) : query)
      .where(gate ? and(where, gate.allowed) : where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset);
  };
  // The rows of `selection`, as drizzle types them for the concrete `columns` of a caller.
  const read = async (tx: Database) => (await pageOf(tx)) as SelectedRow<TColumns>[];
  const extra = { ...gateColumns, [TOTAL]: totalOf(table, where) };
  const rows = (await pageOf(db, extra)) as Array<Record<string, unknown>>;
  const [first] = rows;
  if (first === undefined) {
    if (!gate) return pageWithTotal(db, table, where, read);
    const row = firstRow(await db.select(extra).from(sql`(select 1) as one`), 'gate of an empty page') as Record<string, unknown>;
    gate.row = pick(row, Object.keys(gateColumns));
    if (row[ALLOWED] !== true || row[TOTAL] === 0) return { data: [], total: 0 };
    return pageWithTotal(db, table, where, read);
  }
  if (gate) gate.row = pick(first, Object.keys(gateColumns));
  const keys = Object.keys(selection);
  return { data: rows.map((row) => pick(row, keys)) as SelectedRow<TColumns>[], total: first[TOTAL] as number };
}

/** The row with only `keys`, in their order. */
function pick(row: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) picked[key] = row[key];
  return picked;
}
