// Authenticated farm reads: Akker against a bare Hono route (the framework's ceiling) and a bare Hono
// route doing one indexed query (the database's ceiling), on PGlite and on PostgreSQL; plus the farm
// list of a user with 100 and with 10,000 farms. Every server is a child process; autocannon runs here.
// Settings: BENCH_WARMUP_SECONDS (5), BENCH_SECONDS (10: the constant route and the lists), BENCH_ROUNDS (3),
// BENCH_SLICES (5) and BENCH_SLICE_SECONDS (4) for the farm reads, BENCH_DATABASE_URL (a PostgreSQL server),
// BENCH_AKKER (the server script, to measure another checkout against the same routes).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/db/client.js';
import { createFarm, expectFarm, farmTotal, signUpWithKey, type Account } from './akker-api.js';
import { atExit } from './cleanup.js';
import { measure, sample, summarize, type Durations, type Measurement, type Sample, type Target } from './load.js';
import { freshDatabase } from './postgres.js';
import { startServer, type Server } from './processes.js';
import { printHeader, printLists, printReads, progress, type ListRow } from './report.js';
import { analyze, insertFarms } from './seed.js';
import { envNumber, measuredAkkerEnv } from './settings.js';

const AKKER = process.env.BENCH_AKKER ?? 'src/server.ts';
const CONNECTIONS = [8, 64];
const LIST_CONNECTIONS = 8;
const SMALL_LIST = 100;
const LARGE_LIST = 10_000;
const MAX_LIST_P50_RATIO = 2;

const durations: Durations = { warmupSeconds: envNumber('BENCH_WARMUP_SECONDS', 5), seconds: envNumber('BENCH_SECONDS', 10) };
const ROUNDS = Math.max(1, Math.round(envNumber('BENCH_ROUNDS', 3)));
const SLICES = Math.max(1, Math.round(envNumber('BENCH_SLICES', 5)));
const SLICE_SECONDS = envNumber('BENCH_SLICE_SECONDS', 4);
/** The start of a slice, while its connections open, is not counted. */
const SLICE_LEAD_IN_SECONDS = 0.5;
if (SLICE_SECONDS <= SLICE_LEAD_IN_SECONDS) throw new Error(`BENCH_SLICE_SECONDS must be more than ${SLICE_LEAD_IN_SECONDS}`);
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

/** What Akker and the one-query server each counted, per connection count, over all their slices. */
type Slices = Record<'akker' | 'oneQuery', Map<number, Sample[]>>;

/**
 * Akker and the one-query server, both running, take turns at each connection count: a warm-up each
 * (fresh processes here reach their steady rate after 4–8 s of load), then SLICES slices each,
 * alternating which goes first. A slow patch of the shared machine (they last from seconds to minutes
 * here) then falls on both alike, where rounds of 10 s one after the other let it fall on one server
 * only: the same build's ratio moved between 0.70 and 0.98 that way.
 */
async function takeTurns(akker: Target, oneQuery: Target, slices: Slices, round: number): Promise<void> {
  const sides = [
    { name: 'Akker', target: akker, samples: slices.akker },
    { name: 'Hono + one query', target: oneQuery, samples: slices.oneQuery },
  ];
  for (const connections of CONNECTIONS) {
    if (durations.warmupSeconds > 0) {
      for (const { name, target } of sides) await sample(name, target, connections, durations.warmupSeconds);
    }
    const thisRound = sides.map((): Sample[] => []);
    for (let slice = 0; slice < SLICES; slice++) {
      for (const index of slice % 2 === 0 ? [0, 1] : [1, 0]) {
        const { name, target } = sides[index]!;
        thisRound[index]!.push(await sample(name, target, connections, SLICE_SECONDS, SLICE_LEAD_IN_SECONDS));
      }
    }
    sides.forEach(({ samples }, index) => samples.set(connections, [...(samples.get(connections) ?? []), ...thisRound[index]!]));
    const [a, b] = thisRound.map((taken) => summarize(taken).requestsPerSecond) as [number, number];
    progress(
      `round ${round}, ${connections} connections: Akker ${Math.round(a)} req/s, one query ${Math.round(b)} req/s, ratio ${(a / b).toFixed(3)}`,
    );
  }
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
  /** DATA_DIR or DATABASE_URL, for Akker. */
  env: Record<string, string>;
  /** Opens the database in this process (for seeding), while no server holds it. */
  open(): Promise<DatabaseHandle>;
  /** The one-query server's DATA_DIR or DATABASE_URL once the data is seeded: the same data, open beside Akker. */
  oneQueryEnv(): Record<string, string>;
}

/**
 * One database: Akker creates the users, their keys and the farm to read through its API and stops;
 * the other farms are inserted in bulk. Then ROUNDS times, Akker (a fresh process, as after a deploy)
 * and a fresh one-query server are started side by side and take turns (`takeTurns`).
 * Returns whether the list timing stayed within its bound.
 */
async function benchDatabase({ title, env, open, oneQueryEnv }: DatabaseUnderTest, constant: Map<number, Measurement>): Promise<boolean> {
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
  const oneQueryDatabase = oneQueryEnv();

  const slices: Slices = { akker: new Map(), oneQuery: new Map() };
  let lists: readonly [ListRow, ListRow] | undefined;
  for (let round = 1; round <= ROUNDS; round++) {
    progress(`${title}: Akker and Hono + one query side by side (round ${round} of ${ROUNDS})`);
    await withServer(startServer(AKKER, akkerEnv), (akker) =>
      withServer(startServer('bench/servers/one-query.ts', oneQueryDatabase), async (oneQuery) => {
        const akkerTarget = { url: `${akker.url}/api/farms/${farmId}`, headers: { 'x-api-key': small.key } };
        const oneQueryTarget = { url: `${oneQuery.url}/api/farms/${farmId}` };
        await expectFarm(akkerTarget.url, akkerTarget.headers, farmId);
        await expectFarm(oneQueryTarget.url, {}, farmId);
        await takeTurns(akkerTarget, oneQueryTarget, slices, round);
        lists ??= await measureLists(akker.url, small, large);
      }),
    );
  }

  printReads(
    `${title} (2 users, ${(SMALL_LIST + LARGE_LIST).toLocaleString('en-US')} farms, seeded in ${seedSeconds.toFixed(1)} s)`,
    CONNECTIONS.map((connections) => ({
      connections,
      akker: summarize(slices.akker.get(connections)!),
      oneQuery: summarize(slices.oneQuery.get(connections)!),
      constant: constant.get(connections)!,
    })),
  );
  return printLists(LIST_CONNECTIONS, lists![0], lists![1], MAX_LIST_P50_RATIO);
}

async function benchEmbedded(constant: Map<number, Measurement>): Promise<boolean> {
  const folder = mkdtempSync(join(tmpdir(), 'akker-bench-'));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  const forget = atExit(remove);
  // A PGlite folder admits one process: the one-query server reads a copy of Akker's, made once seeded.
  const dataDir = join(folder, 'akker');
  const copyDir = join(folder, 'one-query');
  // DATABASE_URL emptied so that an inherited one cannot take a server off PGlite.
  const embedded = (dir: string) => ({ DATA_DIR: dir, DATABASE_URL: '' });
  try {
    return await benchDatabase(
      {
        title: 'Embedded (PGlite)',
        env: embedded(dataDir),
        open: () => openPglite(dataDir),
        oneQueryEnv: () => {
          cpSync(dataDir, copyDir, { recursive: true });
          return embedded(copyDir);
        },
      },
      constant,
    );
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
    const env = { DATABASE_URL: url };
    return await benchDatabase({ title: 'PostgreSQL', env, open: () => openPostgres(url, 1), oneQueryEnv: () => env }, constant);
  } finally {
    await database.drop();
  }
}

async function main() {
  printHeader(
    durations,
    { rounds: ROUNDS, slices: SLICES, seconds: SLICE_SECONDS, leadInSeconds: SLICE_LEAD_IN_SECONDS },
    availableParallelism(),
  );
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
