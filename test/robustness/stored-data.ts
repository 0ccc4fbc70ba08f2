// Direct SQL on the data a server process keeps, for the crash tests: seeding a large farm, counting
// a farm's rows, and checking the embedded database's files with amcheck.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import pg from 'pg';
import { templateDataDir } from '../helpers/databases.js';

export type Query = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export interface StoredData {
  kind: 'pglite' | 'postgres';
  /** The environment that points a server process at this data. */
  env: Record<string, string>;
  /** SQL on the data. On the embedded database only while no server runs (a folder has one owner). */
  withSql<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** Fails when an index or a table is corrupt (amcheck); checks the embedded database only. */
  checkIntegrity(query: Query): Promise<void>;
  dispose(): Promise<void>;
}

export async function embeddedData(): Promise<StoredData> {
  const dir = await templateDataDir('akker-crash-');
  return {
    kind: 'pglite',
    env: { DATA_DIR: dir },
    withSql: async (work) => {
      const client = await PGlite.create({ dataDir: join(dir, 'pgdata'), extensions: { amcheck } });
      try {
        return await work(async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows);
      } finally {
        await client.close();
      }
    },
    checkIntegrity: async (query) => {
      await query('create extension if not exists amcheck');
      // bt_index_check(…, true) also checks that every heap tuple is in the index.
      await query(`
        select bt_index_check(c.oid, true) from pg_index i
        join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
        where am.amname = 'btree' and c.relnamespace = 'public'::regnamespace`);
      const corrupt = await query(`
        select c.relname, v.msg from pg_class c cross join lateral verify_heapam(c.oid) v
        where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace`);
      if (corrupt.length) throw new Error(`corrupt tables: ${JSON.stringify(corrupt)}`);
    },
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export async function postgresData(serverUrl: string): Promise<StoredData> {
  const name = `akker_crash_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: 'postgres',
    env: { DATABASE_URL: url.toString() },
    withSql: async (work) => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return await work(async (text, params) => (await client.query(text, params)).rows);
      } finally {
        await client.end();
      }
    },
    checkIntegrity: async () => {},
    dispose: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** Adds `copies` copies of the row `id` of `table`, each column of `suffixed` given the suffix -1, -2, … */
export async function cloneRow(query: Query, table: string, idColumn: string, id: string, suffixed: string[], copies: number) {
  const columns = (
    await query(
      `select column_name from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`,
      [table],
    )
  ).map((row) => row.column_name as string);
  const values = columns.map((column) => (suffixed.includes(column) ? `${column} || '-' || g` : column));
  await query(
    `insert into ${table} (${columns.join(', ')}) select ${values.join(', ')} from ${table}, generate_series(1, ${copies}) g where ${idColumn} = $1`,
    [id],
  );
}

/** How many rows below the farm each table holds, found through the farm (so a half-done cascade shows). */
export async function farmRowCounts(query: Query, farmId: string): Promise<Record<string, number>> {
  const [row] = await query(
    `select
      (select count(*) from farms where b_id_farm = $1)::int as farms,
      (select count(*) from farm_access where b_id_farm = $1)::int as farm_access,
      (select count(*) from fields where b_id_farm = $1)::int as fields,
      (select count(*) from cultivations c join fields f on f.b_id = c.b_id where f.b_id_farm = $1)::int as cultivations,
      (select count(*) from harvests h join cultivations c on c.b_lu = h.b_lu join fields f on f.b_id = c.b_id where f.b_id_farm = $1)::int as harvests,
      (select count(*) from soil_analyses s join fields f on f.b_id = s.b_id where f.b_id_farm = $1)::int as soil_analyses,
      (select count(*) from farm_fertilizers where b_id_farm = $1)::int as farm_fertilizers,
      (select count(*) from fertilizer_applications a join fields f on f.b_id = a.b_id where f.b_id_farm = $1)::int as fertilizer_applications`,
    [farmId],
  );
  return row as Record<string, number>;
}
