// Authenticated farm reads: Akker against a bare Hono route (the framework's ceiling) and a bare Hono
// route doing one indexed query (the database's ceiling), on PGlite and on PostgreSQL; plus the farm
// list of a user with 100 and with 10,000 farms. Every server is a child process; autocannon runs here.
// Settings: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_ROUNDS (5), BENCH_DATABASE_URL (a PostgreSQL server).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/db/client.js';
import { createFarm, expectFarm, farmTotal, signUpWithKey, type Account } from './akker-api.js';
import { atExit } from './cleanup.js';
import { measure, type Durations, type Measurement, type Target } from './load.js';
import { freshDatabase } from './postgres.js';
import { startServer, type Server } from './processes.js';
import { printHeader, printLists, printReads, progress, type ListRow } from './report.js';
import { analyze, insertFarms } from './seed.js';
import { envNumber, measuredAkkerEnv } from './settings.js';

const AKKER = 'src/server.ts';
const CONNECTIONS = [8, 64];
const LIST_CONNECTIONS = 8;
const SMALL_LIST = 100;
const LARGE_LIST = 10_000;
const MAX_LIST_P50_RATIO = 2;

const durations: Durations = { warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', 2), seconds: envNumber('BENCH_SECONDS', 10) };
const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 5)));
const postgresServerUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `work` against a server, stopping the server afterwards whatever happens. */
async function withServer<T>(started: Promise<Server>, work: (server: Server) => Promise<T>): Promise<T> {
  const server = await started;
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

async function measureEach(name: string, target: Target): Promise<Map<number, Measurement>> {
  const results = new Map<number, Measurement>();
  for (const connections of CONNECTIONS) results.set(connections, await measure(name, target, connections, durations));
  return results;
}

/** Per connection count, the round with the median requests/s. */
function medianRounds(rounds: Array<Map<number, Measurement>>): Map<number, Measurement> {
  const median = new Map<number, Measurement>();
  for (const connections of CONNECTIONS) {
    const sorted = rounds.map((round) => round.get(connections)!).sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    median.set(connections, sorted[Math.floor(sorted.length / 2)]!);
  }
  return median;
}

/** The farm list of a user with few farms and of one with many, after checking that Akker counts them right. */
async function measureLists(url: string, small: Account, large: Account): Promise<readonly [ListRow, ListRow]> {
  const [smallTotal, largeTotal] = await Promise.all([farmTotal(url, small.key), farmTotal(url, large.key)]);
  if (smallTotal !== SMALL_LIST || largeTotal !== LARGE_LIST) {
    throw new Error(`Akker lists ${smallTotal} and ${largeTotal} farms, expected ${SMALL_LIST} and ${LARGE_LIST}`);
  }
  const list = async ({ key }: Account, farms: number): Promise<ListRow> => ({
    farms,
    result: await measure(
      `Akker list of ${farms} farms`,
      { url: `${url}/api/farms?limit=50`, headers: { 'x-api-key': key } },
      LIST_CONNECTIONS,
      durations,
    ),
  });
  return [await list(small, SMALL_LIST), await list(large, LARGE_LIST)] as const;
}

interface DatabaseUnderTest {
  title: string;
  /** DATA_DIR or DATABASE_URL, for Akker and the one-query server. */
  env: Record<string, string>;
  /** Opens the database in this process (for seeding), while no server holds it. */
  open(): Promise<DatabaseHandle>;
}

/**
 * One database, one server at a time (a PGlite folder admits one process): Akker creates the users,
 * their keys and the farm to read through its API and stops; the other farms are inserted in bulk;
 * Akker starts again (a fresh process, as after a deploy) and is measured; then the one-query server.
 * Returns whether the list timing stayed within its bound.
 */
async function benchDatabase({ title, env, open }: DatabaseUnderTest, constant: Map<number, Measurement>): Promise<boolean> {
  const akkerEnv = measuredAkkerEnv(env);

  progress(`${title}: seeding`);
  const seedStart = performance.now();
  // The farm that is read is created through the API; the other farms are inserted in bulk.
  const { small, large, farmId } = await withServer(startServer(AKKER, akkerEnv), async ({ url }) => {
    const [small, large] = await Promise.all([signUpWithKey(url, 'small'), signUpWithKey(url, 'large')]);
    return { small, large, farmId: (await createFarm(url, small.key)).b_id_farm };
  });
  const database = await open();
  try {
    await insertFarms(database, small.userId, SMALL_LIST - 1);
    await insertFarms(database, large.userId, LARGE_LIST);
    await analyze(database);
  } finally {
    await database.close();
  }
  const seedSeconds = (performance.now() - seedStart) / 1000;

  // The two servers take turns, ROUNDS times, each a fresh process, and the median round of each is
  // compared: on a shared machine one unlucky run would otherwise decide the ratio.
  const akkerRounds: Array<Map<number, Measurement>> = [];
  const oneQueryRounds: Array<Map<number, Measurement>> = [];
  let lists: readonly [ListRow, ListRow] | undefined;
  for (let round = 1; round <= ROUNDS; round++) {
    progress(`${title}: measuring Akker (round ${round} of ${ROUNDS})`);
    akkerRounds.push(
      await withServer(startServer(AKKER, akkerEnv), async ({ url }) => {
        const headers = { 'x-api-key': small.key };
        const farmUrl = `${url}/api/farms/${farmId}`;
        await expectFarm(farmUrl, headers, farmId);
        const reads = await measureEach('Akker', { url: farmUrl, headers });
        lists ??= await measureLists(url, small, large);
        return reads;
      }),
    );
    progress(`${title}: measuring Hono + one query (round ${round} of ${ROUNDS})`);
    oneQueryRounds.push(
      await withServer(startServer('bench/servers/one-query.ts', env), async ({ url }) => {
        const farmUrl = `${url}/api/farms/${farmId}`;
        await expectFarm(farmUrl, {}, farmId);
        return measureEach('Hono + one query', { url: farmUrl });
      }),
    );
  }
  const akker = medianRounds(akkerRounds);
  const oneQuery = medianRounds(oneQueryRounds);

  printReads(
    `${title} (2 users, ${(SMALL_LIST + LARGE_LIST).toLocaleString('en-US')} farms, seeded in ${seedSeconds.toFixed(1)} s)`,
    CONNECTIONS.map((connections) => ({
      connections,
      akker: akker.get(connections)!,
      oneQuery: oneQuery.get(connections)!,
      constant: constant.get(connections)!,
    })),
  );
  return printLists(LIST_CONNECTIONS, lists![0], lists![1], MAX_LIST_P50_RATIO);
}

async function benchEmbedded(constant: Map<number, Measurement>): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'akker-bench-'));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  const forget = atExit(remove);
  try {
    // DATABASE_URL emptied so that an inherited one cannot take Akker off PGlite.
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    return await benchDatabase({ title: 'Embedded (PGlite)', env, open: () => openPglite(dataDir) }, constant);
  } finally {
    remove();
    forget();
  }
}

async function benchPostgres(constant: Map<number, Measurement>): Promise<boolean> {
  let database;
  try {
    database = await freshDatabase(postgresServerUrl, 'akker_bench');
  } catch (error) {
    console.log(`\nPostgreSQL: skipped, ${postgresServerUrl} is not usable: ${error instanceof Error ? error.message : String(error)}`);
    return true;
  }
  const { url } = database;
  try {
    return await benchDatabase({ title: 'PostgreSQL', env: { DATABASE_URL: url }, open: () => openPostgres(url, 1) }, constant);
  } finally {
    await database.drop();
  }
}

async function main() {
  printHeader(durations, availableParallelism(), ROUNDS);
  // The constant route touches no database, so one measurement serves both tables.
  progress('measuring Hono, constant JSON');
  const constant = await withServer(startServer('bench/servers/constant.ts'), ({ url }) =>
    measureEach('Hono, constant JSON', { url: `${url}/api/farms/AAAAAAAAAAAAAAAAAAAAAA` }),
  );
  const embeddedOk = await benchEmbedded(constant);
  const postgresOk = await benchPostgres(constant);
  if (!embeddedOk || !postgresOk) process.exitCode = 1;
}

await main();
