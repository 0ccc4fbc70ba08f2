// Authenticated farm reads: Akker against a bare Hono route (the framework's ceiling) and a bare Hono
// route doing one indexed query (the database's ceiling), on PGlite and on PostgreSQL; plus the farm
// list of a user with 100 and with 10,000 farms. Every server is a child process writing its output to
// a file; autocannon runs here.
// Settings: BENCH_WARMUP_SECONDS (5), BENCH_SECONDS (10: the constant route and the lists), BENCH_ROUNDS (3),
// BENCH_SLICES (5) and BENCH_SLICE_SECONDS (4) for the farm reads, BENCH_DATABASE_URL (a PostgreSQL server),
// BENCH_AKKER (the server script), BENCH_BEFORE (another checkout's server script, measured in the same run,
// rounds taking turns with BENCH_AKKER's), LOG_REQUESTS (true: Akker's request log, in every Akker row).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/db/client.js';
import { createFarm, expectFarm, farmTotal, signUpWithKey, type Account } from './akker-api.js';
import { atExit } from './cleanup.js';
import { measure, sample, summarize, type Durations, type Measurement, type Sample, type Target } from './load.js';
import { freshDatabase } from './postgres.js';
import { startServer, type Server } from './processes.js';
import { printHeader, printLists, printReads, progress, type BuildReads, type ListRow } from './report.js';
import { analyze, insertFarms } from './seed.js';
import { akkerBuilds, envNumber, measuredAkkerEnv, type Build } from './settings.js';

const BUILDS = akkerBuilds();
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

/** What one build's Akker and its one-query server counted, per connection count, over all rounds. */
interface Counted {
  akker: Map<number, Sample[]>;
  oneQuery: Map<number, Sample[]>;
  /** Akker's requests/s ÷ the one-query server's, one per round. */
  ratios: Map<number, number[]>;
  lists?: readonly [ListRow, ListRow];
}

const append = <T>(map: Map<number, T[]>, key: number, values: T[]) => map.set(key, [...(map.get(key) ?? []), ...values]);

/**
 * Akker and the one-query server, both running, take turns at each connection count: a warm-up each
 * (fresh processes here reach their steady rate after 4–8 s of load), then SLICES slices each,
 * alternating which goes first. A slow patch of the shared machine (they last from seconds to minutes
 * here) then falls on both alike, where rounds of 10 s one after the other let it fall on one server
 * only: the same build's ratio moved between 0.70 and 0.98 that way.
 */
async function takeTurns(label: string, akker: Target, oneQuery: Target, counted: Counted, round: number): Promise<void> {
  const sides = [
    { name: label, target: akker, samples: counted.akker },
    { name: 'Hono + one query', target: oneQuery, samples: counted.oneQuery },
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
    sides.forEach(({ samples }, index) => append(samples, connections, thisRound[index]!));
    const [a, b] = thisRound.map((taken) => summarize(taken).requestsPerSecond) as [number, number];
    append(counted.ratios, connections, [a / b]);
    progress(
      `round ${round}, ${connections} connections: ${label} ${Math.round(a)} req/s, one query ${Math.round(b)} req/s, ratio ${(a / b).toFixed(3)}`,
    );
  }
}

/** The farm list of a user with few farms and of one with many, after checking that Akker counts them right. */
async function measureLists(label: string, url: string, small: Account, large: Account): Promise<readonly [ListRow, ListRow]> {
  const [smallTotal, largeTotal] = await Promise.all([farmTotal(url, small.key), farmTotal(url, large.key)]);
  if (smallTotal !== SMALL_LIST || largeTotal !== LARGE_LIST) {
    throw new Error(`${label} lists ${smallTotal} and ${largeTotal} farms, expected ${SMALL_LIST} and ${LARGE_LIST}`);
  }
  const list = async ({ key }: Account, farms: number): Promise<ListRow> => ({
    farms,
    result: await measure(
      `${label} list of ${farms} farms`,
      { url: `${url}/api/farms?limit=50`, headers: { 'x-api-key': key } },
      LIST_CONNECTIONS,
      durations,
    ),
  });
  return [await list(small, SMALL_LIST), await list(large, LARGE_LIST)] as const;
}

/** One database, set up for one build. */
interface Store {
  /** DATA_DIR or DATABASE_URL, for Akker. */
  env: Record<string, string>;
  /** Opens the database in this process (for seeding), while no server holds it. */
  open(): Promise<DatabaseHandle>;
  /** The one-query server's DATA_DIR or DATABASE_URL once the data is seeded: the same data, open beside Akker. */
  oneQueryEnv(): Record<string, string>;
  remove(): Promise<void>;
}

interface DatabaseKind {
  title: string;
  /** A new empty database; `index` tells the builds' apart. */
  create(index: number): Promise<Store>;
}

/** A build with its own database, seeded by that build and ready to be read. */
interface Seeded {
  build: Build;
  akkerEnv: Record<string, string>;
  oneQueryEnv: Record<string, string>;
  small: Account;
  large: Account;
  farmId: string;
  counted: Counted;
}

/** The build creates the users, their keys and the farm to read through its API and stops; the other farms are inserted in bulk. */
async function seed(build: Build, store: Store): Promise<Seeded> {
  const akkerEnv = measuredAkkerEnv(store.env);
  const { small, large, farmId } = await withServer(startServer(build.script, akkerEnv), async ({ url }) => {
    const [small, large] = await Promise.all([signUpWithKey(url, 'small'), signUpWithKey(url, 'large')]);
    return { small, large, farmId: (await createFarm(url, small.key)).b_id_farm };
  });
  const database = await store.open();
  try {
    await insertFarms(database, small.userId, SMALL_LIST - 1);
    await insertFarms(database, large.userId, LARGE_LIST);
    await analyze(database);
  } finally {
    await database.close();
  }
  const counted = { akker: new Map(), oneQuery: new Map(), ratios: new Map() };
  return { build, akkerEnv, oneQueryEnv: store.oneQueryEnv(), small, large, farmId, counted };
}

/** A fresh Akker of the build (as after a deploy) and a fresh one-query server side by side, taking turns. */
async function round({ build, akkerEnv, oneQueryEnv, small, large, farmId, counted }: Seeded, number: number): Promise<void> {
  await withServer(startServer(build.script, akkerEnv), (akker) =>
    withServer(startServer('bench/servers/one-query.ts', oneQueryEnv), async (oneQuery) => {
      const akkerTarget = { url: `${akker.url}/api/farms/${farmId}`, headers: { 'x-api-key': small.key } };
      const oneQueryTarget = { url: `${oneQuery.url}/api/farms/${farmId}` };
      await expectFarm(akkerTarget.url, akkerTarget.headers, farmId);
      await expectFarm(oneQueryTarget.url, {}, farmId);
      await takeTurns(build.label, akkerTarget, oneQueryTarget, counted, number);
      counted.lists ??= await measureLists(build.label, akker.url, small, large);
    }),
  );
}

/**
 * Each build gets a database of its own (builds may differ in their migrations), seeded alike. Then
 * ROUNDS rounds, the builds taking turns within each (before, after, before, after…).
 * Returns whether the list timings stayed within their bound.
 */
async function benchDatabase({ title, create }: DatabaseKind, constant: Map<number, Measurement>): Promise<boolean> {
  const stores: Store[] = [];
  try {
    progress(`${title}: seeding`);
    const seedStart = performance.now();
    const seeded: Seeded[] = [];
    for (const [index, build] of BUILDS.entries()) {
      const store = await create(index);
      stores.push(store);
      seeded.push(await seed(build, store));
    }
    const seedSeconds = (performance.now() - seedStart) / 1000 / BUILDS.length;

    for (let number = 1; number <= ROUNDS; number++) {
      for (const side of seeded) {
        progress(`${title}: ${side.build.label} and Hono + one query side by side (round ${number} of ${ROUNDS})`);
        await round(side, number);
      }
    }

    const reads = (connections: number): BuildReads[] =>
      seeded.map(({ build, counted }) => ({
        label: build.label,
        akker: summarize(counted.akker.get(connections)!),
        oneQuery: summarize(counted.oneQuery.get(connections)!),
        ratios: counted.ratios.get(connections)!,
      }));
    printReads(
      `${title} (2 users, ${(SMALL_LIST + LARGE_LIST).toLocaleString('en-US')} farms, seeded in ${seedSeconds.toFixed(1)} s a build)`,
      CONNECTIONS.map((connections) => ({ connections, builds: reads(connections), constant: constant.get(connections)! })),
    );
    let ok = true;
    for (const { build, counted } of seeded) ok = printLists(build.label, LIST_CONNECTIONS, ...counted.lists!, MAX_LIST_P50_RATIO) && ok;
    return ok;
  } finally {
    for (const store of stores) await store.remove();
  }
}

function embedded(): DatabaseKind {
  const folder = mkdtempSync(join(tmpdir(), 'akker-bench-'));
  atExit(() => rmSync(folder, { recursive: true, force: true }));
  // DATABASE_URL emptied so that an inherited one cannot take a server off PGlite.
  const env = (dir: string) => ({ DATA_DIR: dir, DATABASE_URL: '' });
  return {
    title: 'Embedded (PGlite)',
    create: async (index) => {
      // A PGlite folder admits one process: the one-query server reads a copy of Akker's, made once seeded.
      const dataDir = join(folder, `akker-${index}`);
      const copyDir = join(folder, `one-query-${index}`);
      return {
        env: env(dataDir),
        open: () => openPglite(dataDir),
        oneQueryEnv: () => {
          cpSync(dataDir, copyDir, { recursive: true });
          return env(copyDir);
        },
        remove: async () => {
          for (const dir of [dataDir, copyDir]) rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

const postgres: DatabaseKind = {
  title: 'PostgreSQL',
  create: async () => {
    const { url, drop } = await freshDatabase(postgresServerUrl, 'akker_bench');
    const env = { DATABASE_URL: url };
    return { env, open: () => openPostgres(url, 1), oneQueryEnv: () => env, remove: drop };
  },
};

/** Whether BENCH_DATABASE_URL's server takes a new database; says why not when it does not. */
async function postgresUsable(): Promise<boolean> {
  try {
    await (await freshDatabase(postgresServerUrl, 'akker_bench_probe')).drop();
    return true;
  } catch (error) {
    console.log(`\nPostgreSQL: skipped, ${postgresServerUrl} is not usable: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}

async function main() {
  printHeader(
    durations,
    { rounds: ROUNDS, slices: SLICES, seconds: SLICE_SECONDS, leadInSeconds: SLICE_LEAD_IN_SECONDS },
    BUILDS,
    availableParallelism(),
  );
  // The constant route touches no database, so one measurement serves both tables.
  progress('measuring Hono, constant JSON');
  const constant = await withServer(startServer('bench/servers/constant.ts'), ({ url }) =>
    measureEach('Hono, constant JSON', { url: `${url}/api/farms/AAAAAAAAAAAAAAAAAAAAAA` }),
  );
  const embeddedOk = await benchDatabase(embedded(), constant);
  const postgresOk = (await postgresUsable()) ? await benchDatabase(postgres, constant) : true;
  if (!embeddedOk || !postgresOk) process.exitCode = 1;
}

await main();
