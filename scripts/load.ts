// Sustained mixed load against a real Akker process: `npm run load` (both databases, 3 rounds of 20 s at 64
// connections), `npm run load -- --database embedded --seconds 60 --rounds 5` for longer runs. 70 % reads,
// 25 % writes, 5 % calculations over 50 users, each with its own farm and 20 keys that its requests take
// turns with. Prints throughput and p50/p99 per category as median (min–max) over the rounds, failures,
// the server's peak resident memory, and the CPU time per request of the server and of PostgreSQL.
// LOAD_BEFORE=<another checkout> measures that checkout's server in the same run: each build on a database
// of its own, set up through its own API by this driver, the builds taking turns round by round (before,
// after, before, after…), each round a fresh server process; then "after ÷ before" round by round.
// Its own server settings (bench/settings.ts, the same for every build): the rate limits at their ceiling
// and no sign-up limit, since one load generator signs up 50 users from one address and sends more than a
// user's write and calculation ceilings allow (a 429 would count as a failure); the request log as
// LOG_REQUESTS says (on by default), to a file.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { atExit } from '../bench/cleanup.js';
import { postgresCpu, postgresCpuMsSince, processCpuMs } from '../bench/cpu-time.js';
import { freshDatabase } from '../bench/postgres.js';
import { startServer } from '../bench/processes.js';
import { progress } from '../bench/report.js';
import { describeBuilds, measuredAkkerEnv, type Build } from '../bench/settings.js';
import { runLoad } from './load/driver.js';
import { HttpClient } from './load/http-client.js';
import { watchMemory } from './load/memory.js';
import { printLoad, type LoadRound, type LoadSetting } from './load/report.js';
import { Workload } from './load/workload.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    users: { type: 'string', default: '50' },
    'keys-per-user': { type: 'string', default: '20' },
  },
});
const setting: LoadSetting = {
  seconds: Number(values.seconds),
  warmupSeconds: Number(values.warmup),
  rounds: Math.max(1, Math.round(Number(values.rounds))),
  connections: Number(values.connections),
  users: Number(values.users),
  keysPerUser: Number(values['keys-per-user']),
};
const postgresServerUrl = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** This checkout's server, and before it LOAD_BEFORE's (a checkout's folder) when set. */
function loadBuilds(): Build[] {
  const current = { label: 'Akker', script: 'src/server.ts' };
  const before = process.env.LOAD_BEFORE;
  if (!before) return [current];
  return [
    { label: 'Akker before', script: join(resolve(before), 'src/server.ts') },
    { label: 'Akker after', script: current.script },
  ];
}

/** One build's database and the workload set up on it. */
interface Side {
  build: Build;
  env: Record<string, string>;
  /** Whether its database is the PostgreSQL server, whose processes' CPU time is then counted too. */
  onPostgres: boolean;
  workload?: Workload;
  rounds: LoadRound[];
}

/** A fresh server of the side's build: set up the workload the first time, warm up, measure, stop. */
async function round(side: Side, number: number): Promise<void> {
  const { build, env } = side;
  const server = await startServer(build.script, { ...measuredAkkerEnv(env), SIGNUP_LIMIT_PER_HOUR: '0' });
  const client = new HttpClient(server.url, setting.connections);
  try {
    if (side.workload === undefined) {
      progress(`${build.label}: ${setting.users} users, each with ${setting.keysPerUser} keys and a farm`);
      // Users are set up a few at a time, so some connections sit idle now and then: a new one for each request.
      const setUp = new HttpClient(server.url, setting.connections, false);
      try {
        side.workload = await Workload.create(setUp, setting.users, setting.keysPerUser, Date.now().toString(36));
      } finally {
        setUp.close();
      }
    }
    if (setting.warmupSeconds > 0) {
      progress(`${build.label}, round ${number}: warming up for ${setting.warmupSeconds} s`);
      await runLoad(client, side.workload, setting.connections, setting.warmupSeconds, 1_000 * number);
    }
    progress(`${build.label}, round ${number}: measuring for ${setting.seconds} s`);
    const memory = watchMemory(server.pid);
    const cpuBefore = { serverMs: processCpuMs(server.pid), database: side.onPostgres ? postgresCpu() : undefined };
    const result = await runLoad(client, side.workload, setting.connections, setting.seconds, 2_000 * number);
    const cpu = {
      serverMs: processCpuMs(server.pid) - cpuBefore.serverMs,
      databaseMs: cpuBefore.database ? postgresCpuMsSince(cpuBefore.database) : null,
    };
    side.rounds.push({ result, memory: memory.stop(), cpu });
  } finally {
    client.close();
    await server.stop();
  }
}

/** Every build on a database of its own (`databases[i]` for build i), the builds taking turns round by round. */
async function measureDatabase(title: string, databases: Record<string, string>[], onPostgres: boolean): Promise<void> {
  const sides: Side[] = loadBuilds().map((build, index) => ({ build, env: databases[index]!, onPostgres, rounds: [] }));
  for (let number = 1; number <= setting.rounds; number++) {
    for (const side of sides) await round(side, number);
  }
  printLoad(title, setting, sides);
}

const builds = loadBuilds();
console.log(
  `Akker load test: node ${process.version}, ${availableParallelism()} CPUs shared by the load generator, the server and the database; ` +
    `${setting.rounds} rounds of a ${setting.warmupSeconds} s warm-up and ${setting.seconds} s measured` +
    `${builds.length > 1 ? ', the builds taking turns round by round' : ''}, a fresh server each round. ` +
    'Rate limits at their ceiling and no sign-up limit (one generator, 50 users).',
);
console.log(describeBuilds(builds));
if (values.database === 'both' || values.database === 'embedded') {
  const folder = mkdtempSync(join(tmpdir(), 'akker-load-'));
  const forget = atExit(() => rmSync(folder, { recursive: true, force: true }));
  // DATABASE_URL emptied so that an inherited one cannot take a server off PGlite.
  await measureDatabase(
    'Embedded database (PGlite)',
    builds.map((_, index) => ({ DATA_DIR: join(folder, `akker-${index}`), DATABASE_URL: '' })),
    false,
  );
  rmSync(folder, { recursive: true, force: true });
  forget();
}
if (values.database === 'both' || values.database === 'postgres') {
  const databases = [];
  try {
    while (databases.length < builds.length) databases.push(await freshDatabase(postgresServerUrl, 'akker_load'));
    await measureDatabase(
      'PostgreSQL',
      databases.map(({ url }) => ({ DATABASE_URL: url })),
      true,
    );
  } finally {
    for (const database of databases) await database.drop();
  }
}
