// A digest of every row of the given tables, computed by the database: equal digests, unchanged data.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.js';
import type { TestApp } from './app.js';

export async function tablesDigest(t: TestApp, tables: string[]): Promise<string> {
  const digests = tables.map(
    (table) => sql`(select md5(coalesce(string_agg(r::text, ',' order by r::text), '')) from ${sql.identifier(table)} r)`,
  );
  const [row] = await queryRows<{ digest: string }>(t.database.db, sql`select concat_ws(':', ${sql.join(digests, sql`, `)}) as digest`);
  return row!.digest;
}
