// Opens the database: PGlite (embedded, one process owns it) or a PostgreSQL server.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { acquireDirectoryLock } from './lock.js';
import { migratePglite, migratePostgres } from './migrate.js';
import { createDataDir, createImage } from './pglite-create.js';
import { postgresUnavailable } from './postgres-unavailable.js';
import { PgliteThread, type EmbeddedClient } from './pglite-thread.js';
import type { Statement } from './statement.js';
import { GENERIC_PLANS, PlanningClient } from './planned-once.js';
import { createLogger, type Logger } from '../core/logger.js';

/** Where the database's own events go: the process's log (one of its own when the caller has none). */
export type DatabaseLog = Pick<Logger, 'info' | 'error'>;
const ownLog = (): DatabaseLog => createLogger('info');

/** Told of each statement a database handle sends, as it is sent (for the tests that pin how many a request takes). */
export type StatementListener = (text: string) => void;

/** What both drivers answer a raw statement with (`db.execute`): node-postgres and PGlite results both carry `rows`. */
interface RowsResult extends PgQueryResultHKT {
  type: Rows<this['row']>;
}
interface Rows<Row> {
  rows: Row[];
}

// drizzle is given no schema: its relational queries (`db.query`) are not used, and with a schema every
// transaction builds a query builder for each table (some 30 µs a write).
export type Database = PgDatabase<RowsResult>;

export interface DatabaseHandle {
  db: Database;
  /**
   * Rows of a hot read path's statement, sent to the driver as it is (no query builder on the way; the
   * driver's own type parsing, so such statements return no dates). Planned once: by a PostgreSQL server
   * per connection, under its name; by the embedded database's thread (db/planned-once.ts).
   */
  rows<Row, Values extends Record<string, unknown>>(statement: Statement<Row, Values>, values: Values): Promise<Row[]>;
  /** Brings the schema up to date; safe to run on every start. */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export async function openPostgres(
  url: string,
  poolSize = 10,
  onStatement?: StatementListener,
  log: DatabaseLog = ownLog(),
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, Client: PlanningClient });
  pool.on('error', (error) => log.error({ error: error.message }, 'idle PostgreSQL client failed'));
  // Queued on the new connection before anything the pool hands it out for.
  pool.on('connect', (client) => {
    client
      .query(`set ${GENERIC_PLANS.name} = ${GENERIC_PLANS.value}`)
      .catch((error: unknown) => log.error({ error: String(error) }, 'could not set up a PostgreSQL connection'));
  });
  try {
    await pool.query('select 1');
  } catch (error) {
    await pool.end();
    throw postgresUnavailable(url, error);
  }
  // drizzle's logger sees every statement it sends, its transactions' BEGIN and COMMIT too.
  const logger = onStatement && { logQuery: (text: string) => onStatement(text) };
  const db = drizzlePg(pool, { logger }) as unknown as Database;
  return {
    db,
    rows: (statement, values) => {
      onStatement?.(statement.text);
      return pool.query({ name: statement.name, text: statement.text, values: statement.params(values) }).then((result) => result.rows);
    },
    migrate: () => migratePostgres(pool),
    close: () => pool.end(),
  };
}

// PGlite runs no autovacuum, so nothing refreshes the planner's statistics unless we do: without them
// it plans joins as if every table were tiny. ANALYZE samples, so it stays quick on large tables.
const ANALYZE_INTERVAL_MS = 10 * 60_000;

/** A handle on an embedded database: a PGlite in this thread, or one on its own thread (PgliteThread). */
export function pgliteHandle(client: EmbeddedClient, onClose: () => void = () => {}, log: DatabaseLog = ownLog()): DatabaseHandle {
  // drizzle calls only query and transaction (with the transaction's query): what an EmbeddedClient has.
  const db = drizzlePglite(client as PGlite) as unknown as Database;
  const analyze = () => client.exec('analyze').catch((error: unknown) => log.error({ error: String(error) }, 'analyze failed'));
  const timer = setInterval(analyze, ANALYZE_INTERVAL_MS);
  timer.unref();
  return {
    db,
    rows: (statement, values) => client.query<never>(statement.text, statement.params(values)).then((result) => result.rows),
    migrate: async () => {
      await migratePglite(client);
      await analyze();
    },
    close: async () => {
      clearInterval(timer);
      await client.close();
      onClose();
    },
  };
}

/**
 * Opens the embedded database, on its own thread, in `dataDir` (taking its lock), or in memory for
 * `memory://`. Creating one takes a while (PostgreSQL's initdb, some seconds): the log says so, and how long.
 */
export async function openPglite(dataDir: string, log: DatabaseLog = ownLog()): Promise<DatabaseHandle> {
  const creating = async <T>(where: string, create: () => Promise<T>): Promise<T> => {
    log.info({ data_dir: dataDir }, `creating the embedded database in ${where} …`);
    const started = performance.now();
    const created = await create();
    log.info({ data_dir: dataDir, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) }, 'embedded database created');
    return created;
  };
  if (dataDir === 'memory://') {
    const image = await creating('memory', createImage);
    return pgliteHandle(await PgliteThread.start({ loadDataDir: image }), undefined, log);
  }
  mkdirSync(dataDir, { recursive: true });
  const lock = acquireDirectoryLock(dataDir);
  try {
    const pgdata = join(dataDir, 'pgdata');
    if (!existsSync(join(pgdata, 'PG_VERSION'))) await creating(dataDir, () => createDataDir(pgdata));
    return pgliteHandle(await PgliteThread.start({ dataDir: pgdata }), lock.release, log);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Rows of a prebuilt statement on any database or transaction (`DatabaseHandle.rows` is the pool's, with no drizzle at all). */
export function statementRows<Row, Values extends Record<string, unknown>>(
  db: Database,
  statement: Statement<Row, Values>,
  values: Values,
): Promise<Row[]> {
  return queryRows<Row & Record<string, unknown>>(db, statement.query(values));
}

/** Runs raw SQL and returns its rows; PGlite and node-postgres both answer `{ rows }`. */
export async function queryRows<T extends Record<string, unknown>>(db: Database, query: SQL): Promise<T[]> {
  return (await db.execute<T>(query)).rows;
}
