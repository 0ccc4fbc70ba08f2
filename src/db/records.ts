// The columns of a record's table as the API returns them, and the row type a select of columns reads:
// both derived from the schema, so that a record type cannot drift from its table.
import { getTableColumns, type GetColumnData, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { recordTimes } from './timestamps.js';

type RecordTable = PgTable & { created_at: PgColumn; updated_at: PgColumn };

/** Every column of `table` but `omit`, in table order, then its times as RFC 3339 text (last, as in every table). */
export function recordColumns<T extends RecordTable, K extends Exclude<keyof T['$inferSelect'], 'created_at' | 'updated_at'> = never>(
  table: T,
  ...omit: K[]
) {
  const { created_at, updated_at, ...columns } = getTableColumns(table);
  for (const name of omit) delete columns[name];
  return { ...(columns as Omit<typeof columns, K>), ...recordTimes(table) };
}

/** The row a select of `TColumns` reads: a column's value (null where the column is nullable), an aliased expression's type. */
export type SelectedRow<TColumns> = {
  [K in keyof TColumns]: TColumns[K] extends PgColumn ? GetColumnData<TColumns[K]> : TColumns[K] extends SQL.Aliased<infer V> ? V : never;
};
