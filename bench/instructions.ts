// Instructions per request, counted by valgrind's callgrind: Akker's authenticated GET /api/farms/{id}
// against the one-query route, on PGlite and on PostgreSQL. Requests per second on this shared 2-core
// machine move by up to 20 % between runs; an instruction count mostly moves by a few percent (garbage
// collection and compilation do not happen at the same moments), so small changes of the hot path
// can be compared. Some processes used to run some 15 % higher, with V8 changing object shapes in its
// runtime on every request (`MigrateToMap`); the per-request case found was the answer's header object
// cloned with a spread (gone since then: http/answer-headers.ts). Still measure more than one round
// (BENCH_ROUNDS) and compare like with like. Counts are of the server's main JavaScript thread, where a request's work is done;
// instrumentation is on only while the measured requests run, after a warm-up. A thread that does
// 1.25 times the one-query route's instructions serves 0.8 of its requests/s if both run alike fast
// per instruction (Akker's larger code and heap make it run somewhat slower).
// Settings: BENCH_WARMUP_REQUESTS (15,000; PGlite a third), BENCH_REQUESTS (4,000), BENCH_ROUNDS (1),
// BENCH_DATABASE_URL (a PostgreSQL server), BENCH_AKKER (the server script, to compare another tree).
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFarm, expectFarm, signUpWithKey } from './akker-api.js';
import { atExit } from './cleanup.js';
import { freshDatabase } from './postgres.js';
import { startServer } from './processes.js';
import { progress } from './report.js';
import { envNumber, measuredAkkerEnv } from './settings.js';

const atLeastOne = (name: string, fallback: number) => Math.max(1, Math.round(envNumber(name, fallback)));
const WARMUP = atLeastOne('BENCH_WARMUP_REQUESTS', 15_000);
const REQUESTS = atLeastOne('BENCH_REQUESTS', 4_000);
const ROUNDS = atLeastOne('BENCH_ROUNDS', 1);
const AKKER = process.env.BENCH_AKKER ?? 'src/server.ts';
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

/** Main-thread instructions per request of one server process, measured after `warmup` requests. */
async function countInstructions({ script, env, headers }: Target, farmId: string, warmup: number): Promise<number> {
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
  const server = await startServer(script, env, valgrind);
  // Valgrind names its control pipes after $HOST (Akker's listening address): callgrind_control must see the same.
  const instrumentation = (state: 'on' | 'off') =>
    execFileSync('callgrind_control', [`--vgdb-prefix=${vgdbPrefix}`, `--instr=${state}`, String(server.pid)], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
  try {
    const url = `${server.url}/api/farms/${farmId}`;
    await expectFarm(url, headers, farmId);
    await send(url, headers, warmup);
    instrumentation('on');
    await send(url, headers, REQUESTS);
    instrumentation('off');
  } finally {
    await server.stop();
  }
  // With --separate-threads the main thread's counts are in the file ending in -01.
  const mainThread = readdirSync(outDir).find((name) => name.startsWith('callgrind.out') && name.endsWith('-01'));
  const totals = mainThread && /^totals: (\d+)$/m.exec(readFileSync(join(outDir, mainThread), 'utf8'));
  if (!totals || Number(totals[1]) === 0) throw new Error(`callgrind counted nothing for ${script}: was instrumentation switched on?`);
  return Number(totals[1]) / REQUESTS;
}

/** `amount` requests over 8 connections; every one must answer 200 (slowly: valgrind runs the server 20–50 times slower). */
async function send(url: string, headers: Record<string, string>, amount: number): Promise<void> {
  const result = await autocannon({ url, headers, connections: 8, amount, timeout: 120 });
  const ok = result.statusCodeStats['200']?.count ?? 0;
  if (ok !== amount)
    throw new Error(
      `${url}: ${ok} of ${amount} requests answered 200 (${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors)`,
    );
}

/** Akker's read and the one-query route's, on one database, ROUNDS times. */
async function measure(title: string, env: Record<string, string>, warmup: number): Promise<void> {
  const akkerEnv = measuredAkkerEnv(env);
  progress(`${title}: creating a user, a key and a farm`);
  const setup = await startServer(AKKER, akkerEnv);
  let key: string, farmId: string;
  try {
    ({ key } = await signUpWithKey(setup.url, 'instructions'));
    farmId = (await createFarm(setup.url, key)).b_id_farm;
  } finally {
    await setup.stop();
  }
  for (let round = 1; round <= ROUNDS; round++) {
    progress(`${title}: Akker under callgrind (round ${round} of ${ROUNDS})`);
    const akker = await countInstructions({ script: AKKER, env: akkerEnv, headers: { 'x-api-key': key } }, farmId, warmup);
    progress(`${title}: Hono + one query under callgrind (round ${round} of ${ROUNDS})`);
    const oneQuery = await countInstructions({ script: 'bench/servers/one-query.ts', env, headers: {} }, farmId, warmup);
    const count = (n: number) => Math.round(n).toLocaleString('en-US').padStart(9);
    console.log(
      `${title.padEnd(12)} Akker ${count(akker)}   one query ${count(oneQuery)}   Akker ÷ one query ${(akker / oneQuery).toFixed(2)}`,
    );
  }
}

console.log(
  `Main-thread instructions per GET /api/farms/{id}, after a warm-up, ${REQUESTS.toLocaleString('en-US')} requests over 8 connections (callgrind):`,
);
const dataDir = mkdtempSync(join(workDir, 'data-'));
await measure('PGlite', { DATA_DIR: dataDir, DATABASE_URL: '' }, Math.ceil(WARMUP / 3));
let postgres;
try {
  postgres = await freshDatabase(postgresServerUrl, 'akker_bench_instructions');
} catch (error) {
  console.log(`PostgreSQL: skipped, ${postgresServerUrl} is not usable: ${error instanceof Error ? error.message : String(error)}`);
}
if (postgres) {
  try {
    await measure('PostgreSQL', { DATABASE_URL: postgres.url }, WARMUP);
  } finally {
    await postgres.drop();
  }
}
