// The times a record carries on the wire, as the database formats them: the same text from PGlite and
// from PostgreSQL, whatever either driver would make of a timestamp.
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** RFC 3339 in UTC with milliseconds (2025-03-01T10:00:00.000Z), as SQL text for a column or an expression. */
export const rfc3339Text = (time: PgColumn | SQL) => sql<string>`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** `created_at` and `updated_at` of a record's table, to spread into the columns a query selects or returns. */
export const recordTimes = (table: { created_at: PgColumn; updated_at: PgColumn }) => ({
  created_at: rfc3339Text(table.created_at).as('created_at'),
  updated_at: rfc3339Text(table.updated_at).as('updated_at'),
});
