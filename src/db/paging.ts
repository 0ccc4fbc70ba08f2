// One page of a list and the total, paged in SQL.
import { count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';
import type { PageQuery } from '../http/pagination.js';

export async function countRows(db: Database, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ total: count() }).from(table).where(where);
  return row!.total;
}

export async function selectPage<T>(
  db: Database,
  table: PgTable,
  columns: Record<string, PgColumn | SQL.Aliased>,
  where: SQL | undefined,
  orderBy: PgColumn[],
  page: PageQuery,
): Promise<{ data: T[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .select(columns)
      .from(table)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.limit)
      .offset(page.offset),
    countRows(db, table, where),
  ]);
  return { data: rows as T[], total };
}
