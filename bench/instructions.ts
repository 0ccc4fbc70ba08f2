// Instructions per request, counted by valgrind's callgrind: Akker's authenticated GET /api/farms/{id}
// against the one-query route, on PGlite and on PostgreSQL. Requests per second on this shared 2-core
// machine move by up to 20 % between runs; an instruction count mostly moves by a few percent (garbage
// collection and compilation do not happen at the same moments), so small changes of the hot path
// can be compared. Still measure more than one round (BENCH_ROUNDS) and compare like with like.
// Counts are per thread: the main JavaScript thread, where a request's work is done, and the others
// (V8's compiler and GC helpers, libuv's pool, and PGlite's own worker thread) beside it.
// Instrumentation is on only while the measured requests run; they go over the keep-alive connections
// the warm-up opened. A thread that does 1.25 times the one-query route's instructions serves 0.8 of
// its requests/s if both run alike fast per instruction.
// Settings: BENCH_WARMUP_REQUESTS (15,000; PGlite a third), BENCH_REQUESTS (4,000), BENCH_ROUNDS (1),
// BENCH_DATABASE_URL (a PostgreSQL server), BENCH_AKKER (the server script), BENCH_BEFORE (another
// checkout's server script, measured in the same run), BENCH_COMPONENTS=1 (the main thread split by
// component), BENCH_DATABASES (pglite,postgresql), LOG_REQUESTS (true).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFarm, expectFarm, signUpWithKey } from './akker-api.js';
import { componentsOf } from './callgrind-components.js';
import { atExit } from './cleanup.js';
import { freshDatabase } from './postgres.js';
import { startServer } from './processes.js';
import { printComponents, printCounts, type Counted } from './instructions-report.js';
import { progress } from './report.js';
import { akkerBuilds, describeBuilds, envNumber, measuredAkkerEnv, type Build } from './settings.js';
import { WarmClient } from './warm-client.js';

const atLeastOne = (name: string, fallback: number) => Math.max(1, Math.round(envNumber(name, fallback)));
const WARMUP = atLeastOne('BENCH_WARMUP_REQUESTS', 15_000);
const REQUESTS = atLeastOne('BENCH_REQUESTS', 4_000);
const ROUNDS = atLeastOne('BENCH_ROUNDS', 1);
const COMPONENTS = process.env.BENCH_COMPONENTS === '1';
/** Which databases to measure on: `pglite`, `postgresql` or both (the default), comma-separated. */
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgresql').split(',');
const CONNECTIONS = 8;
const BUILDS = akkerBuilds();
const postgresServerUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** valgrind, installed from Debian's packages when missing. */
function ensureValgrind(): boolean {
  const installed = () => {
    try {
      execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (installed()) return true;
  progress('installing valgrind (apt-get)');
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', 'valgrind'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    // Reported below.
  }
  return installed();
}

if (!ensureValgrind()) {
  console.log('valgrind is not installed and could not be (Debian package valgrind): nothing measured.');
  process.exit(1);
}

const workDir = mkdtempSync(join(tmpdir(), 'akker-instructions-'));
atExit(() => rmSync(workDir, { recursive: true, force: true }));

interface Target {
  script: string;
  env: Record<string, string>;
  headers: Record<string, string>;
}

/** Instructions per request of one server process, by thread, measured after `warmup` requests. */
async function countInstructions({ script, env, headers }: Target, farmId: string, warmup: number): Promise<Counted> {
  const outDir = mkdtempSync(join(workDir, 'run-'));
  const vgdbPrefix = join(outDir, 'vgdb');
  const valgrind = [
    'valgrind',
    '--tool=callgrind',
    '--instr-atstart=no',
    '--separate-threads=yes',
    // V8 writes machine code into memory and rewrites it: valgrind must notice.
    '--smc-check=all-non-file',
    `--vgdb-prefix=${vgdbPrefix}`,
    `--log-file=${join(outDir, 'valgrind.log')}`,
    `--callgrind-out-file=${join(outDir, 'callgrind.out')}`,
  ];
  // Names JIT code (in /tmp/perf-<pid>.map) and gives each interpreted function a code address of its own;
  // V8's log, which these turn on, goes here rather than into the checkout.
  const profiling = [
    '--perf-basic-prof',
    '--interpreted-frames-native-stack',
    '--no-logfile-per-isolate',
    `--logfile=${join(outDir, 'v8.log')}`,
  ];
  const server = await startServer(script, env, valgrind, COMPONENTS ? profiling : []);
  // Valgrind names its control pipes after $HOST (Akker's listening address): callgrind_control must see the same.
  const instrumentation = (state: 'on' | 'off') =>
    execFileSync('callgrind_control', [`--vgdb-prefix=${vgdbPrefix}`, `--instr=${state}`, String(server.pid)], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
  const client = new WarmClient(CONNECTIONS);
  try {
    const url = `${server.url}/api/farms/${farmId}`;
    await expectFarm(url, headers, farmId);
    await client.send(url, headers, warmup, false);
    instrumentation('on');
    await client.send(url, headers, REQUESTS, true);
    instrumentation('off');
  } finally {
    client.close();
    await server.stop();
  }
  return perRequest(outDir, script, server.pid);
}

/** With --separate-threads callgrind writes a file per thread, the main thread's ending in -01. */
function perRequest(outDir: string, script: string, pid: number): Counted {
  const threads = readdirSync(outDir)
    .filter((name) => /^callgrind\.out-\d+$/.test(name))
    .map((name) => ({ name, total: Number(/^totals: (\d+)$/m.exec(readFileSync(join(outDir, name), 'utf8'))?.[1] ?? 0) }));
  const main = threads.find(({ name }) => name.endsWith('-01'));
  if (!main || main.total === 0) throw new Error(`callgrind counted nothing for ${script}: was instrumentation switched on?`);
  const others = threads.filter((thread) => thread !== main && thread.total > 0);
  let components;
  if (COMPONENTS) {
    const perfMap = `/tmp/perf-${pid}.map`;
    components = componentsOf(join(outDir, main.name), perfMap, REQUESTS);
    rmSync(perfMap, { force: true });
  }
  return {
    main: main.total / REQUESTS,
    others: others.reduce((sum, { total }) => sum + total, 0) / REQUESTS,
    busyThreads: others.length,
    components,
  };
}

/** One build with a database of its own (builds may differ in their migrations), and its user's key and farm. */
async function setUp(build: Build, env: Record<string, string>): Promise<{ key: string; farmId: string }> {
  const setup = await startServer(build.script, measuredAkkerEnv(env));
  try {
    const { key } = await signUpWithKey(setup.url, 'instructions');
    return { key, farmId: (await createFarm(setup.url, key)).b_id_farm };
  } finally {
    await setup.stop();
  }
}

/** Each build's read and the one-query route's (on the last build's database), ROUNDS times, the builds taking turns. */
async function measure(title: string, databases: Array<Record<string, string>>, warmup: number): Promise<void> {
  progress(`${title}: creating a user, a key and a farm with each build`);
  const sides = [];
  for (const [index, build] of BUILDS.entries()) sides.push({ build, env: databases[index]!, ...(await setUp(build, databases[index]!)) });
  const last = sides.at(-1)!;
  const targets = [
    ...sides.map(({ build, env, key, farmId }) => ({
      label: build.label,
      farmId,
      target: { script: build.script, env: measuredAkkerEnv(env), headers: { 'x-api-key': key } },
    })),
    { label: 'Hono + one query', farmId: last.farmId, target: { script: 'bench/servers/one-query.ts', env: last.env, headers: {} } },
  ];
  const counts = targets.map(() => [] as Counted[]);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [index, { label, farmId, target }] of targets.entries()) {
      progress(`${title}: ${label} under callgrind (round ${round} of ${ROUNDS})`);
      counts[index]!.push(await countInstructions(target, farmId, warmup));
    }
  }
  const rows = targets.map(({ label }, index) => ({ label, counts: counts[index]! }));
  printCounts(title, rows);
  if (COMPONENTS) printComponents(title, rows);
}

console.log(
  `Instructions per GET /api/farms/{id} (callgrind), ${REQUESTS.toLocaleString('en-US')} requests over ${CONNECTIONS} keep-alive connections ` +
    `opened by the warm-up before them (${WARMUP.toLocaleString('en-US')} requests, PGlite a third); ${ROUNDS} round(s), ` +
    'shown as median (min–max) when more than one. Main thread, and the sum of the other threads that ran.',
);
console.log(describeBuilds(BUILDS));
if (DATABASES.includes('pglite')) {
  await measure(
    'PGlite',
    BUILDS.map(() => ({ DATA_DIR: mkdtempSync(join(workDir, 'data-')), DATABASE_URL: '' })),
    Math.ceil(WARMUP / 3),
  );
}
const postgres = [];
try {
  while (DATABASES.includes('postgresql') && postgres.length < BUILDS.length)
    postgres.push(await freshDatabase(postgresServerUrl, 'akker_bench_instructions'));
} catch (error) {
  console.log(`PostgreSQL: skipped, ${postgresServerUrl} is not usable: ${error instanceof Error ? error.message : String(error)}`);
}
try {
  if (postgres.length === BUILDS.length) {
    await measure(
      'PostgreSQL',
      postgres.map(({ url }) => ({ DATABASE_URL: url })),
      WARMUP,
    );
  }
} finally {
  for (const database of postgres) await database.drop();
}
