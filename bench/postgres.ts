// A fresh database for the run on the PostgreSQL server of BENCH_DATABASE_URL.
import pg from 'pg';

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

/** Drops `name` if it exists and creates it empty; Akker migrates it on start. Throws when the server is unreachable. */
export async function freshDatabase(serverUrl: string, name: string): Promise<BenchDatabase> {
  const dropIt = (client: pg.Client) => client.query(`drop database if exists ${name} with (force)`);
  await withClient(serverUrl, async (client) => {
    await dropIt(client);
    await client.query(`create database ${name}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => withClient(serverUrl, dropIt) };
}
