// One page of a list and the total, paged in SQL and read in one snapshot.
import { count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

/** Which page of a list: how many items at most, after how many. */
export interface PageQuery {
  limit: number;
  offset: number;
}

export async function countRows(db: Database, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ total: count() }).from(table).where(where);
  return row!.total;
}

/**
 * Runs the statements of `read` in one snapshot, so that a page and its total agree with each other
 * whatever commits while they run.
 */
export function inOneSnapshot<T>(db: Database, read: (tx: Database) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

export function selectPage<T>(
  db: Database,
  table: PgTable,
  columns: Record<string, PgColumn | SQL.Aliased>,
  where: SQL | undefined,
  orderBy: PgColumn[],
  page: PageQuery,
): Promise<{ data: T[]; total: number }> {
  return inOneSnapshot(db, async (tx) => {
    const [rows, total] = await Promise.all([
      tx
        .select(columns)
        .from(table)
        .where(where)
        .orderBy(...orderBy)
        .limit(page.limit)
        .offset(page.offset),
      countRows(tx, table, where),
    ]);
    return { data: rows as T[], total };
  });
}
