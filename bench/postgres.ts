// A database of its own for each bench process on the PostgreSQL server of BENCH_DATABASE_URL, so that
// two bench processes never share one; dropped when done, and at exit should the process stop early.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { atExit } from './cleanup.js';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function withClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database named `prefix` plus this process's id and a random part; Akker migrates it on start. Throws when the server is unreachable. */
export async function freshDatabase(serverUrl: string, prefix: string): Promise<BenchDatabase> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const dropSql = `drop database if exists ${name} with (force)`;
  await withClient(serverUrl, (client) => client.query(`create database ${name}`));
  // An exit handler cannot wait for a promise: psql drops it synchronously.
  const forget = atExit(() =>
    spawnSync('psql', ['--no-psqlrc', '--quiet', '--dbname', serverUrl, '--command', dropSql], { stdio: 'ignore' }),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withClient(serverUrl, (client) => client.query(dropSql));
      forget();
    },
  };
}
