// Test databases: always the embedded one, and a PostgreSQL server when TEST_DATABASE_URL is set.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, pgliteHandle, type DatabaseHandle, type StatementListener } from '../../src/db/client.js';
import { PgliteThread, type EmbeddedClient } from '../../src/db/pglite-thread.js';
import { tempDir } from './temp.js';

export type StorageKind = 'pglite' | 'postgres';

/** The storages a storage test runs on; PostgreSQL only when CI (or you) gives a server. */
export const storageKinds: StorageKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

let template: Blob | undefined;
/** The migrated template of the run (global-setup.ts), read once per test process: a Blob cannot be changed. */
export const pgliteTemplate = (): Blob => (template ??= new Blob([readFileSync(inject('pgliteTemplate'))]));

/** `client`, telling `onStatement` of each statement it sends, a transaction's BEGIN and COMMIT included. */
function listenedTo(client: EmbeddedClient, onStatement: StatementListener): EmbeddedClient {
  return {
    query: (text, params, options) => (onStatement(text), client.query(text, params, options)),
    exec: (text) => (onStatement(text), client.exec(text)),
    transaction: async (work) => {
      onStatement('BEGIN');
      const result = await client.transaction((tx) =>
        work({
          query: (text, params, options) => (onStatement(text), tx.query(text, params, options)),
          exec: (text) => (onStatement(text), tx.exec(text)),
        }),
      );
      onStatement('COMMIT');
      return result;
    },
    close: () => client.close(),
  };
}

export async function openTestPglite(onStatement?: StatementListener): Promise<DatabaseHandle> {
  const client = await PgliteThread.start({ loadDataDir: pgliteTemplate() });
  return pgliteHandle(onStatement ? listenedTo(client, onStatement) : client);
}

/**
 * A new DATA_DIR for a server process, holding the migrated template already: the server opens it
 * in well under a second, where a new one would cost it initdb (seconds, and ~800 MB).
 */
export async function templateDataDir(prefix = 'akker-data-'): Promise<string> {
  const dir = tempDir(prefix);
  await (await PGlite.create({ dataDir: join(dir, 'pgdata'), loadDataDir: pgliteTemplate() })).close();
  return dir;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A fresh, migrated PostgreSQL database of its own, dropped again on close. */
export async function openTestPostgres(onStatement?: StatementListener): Promise<DatabaseHandle & { url: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `akker_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  const handle = await openPostgres(url, 4, onStatement);
  await handle.migrate();
  return {
    ...handle,
    url,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** `onStatement`: told of every statement the handle sends (the migration's too, on PostgreSQL). */
export const openTestDatabase = (kind: StorageKind, onStatement?: StatementListener): Promise<DatabaseHandle> =>
  kind === 'pglite' ? openTestPglite(onStatement) : openTestPostgres(onStatement);
