// Sustained mixed load against a real Akker process: `npm run load` (both databases, 60 s each at 64
// connections) or `npm run load -- --database embedded --seconds 20`. 70 % reads, 25 % writes, 5 %
// calculations over 50 users, each with its own farm and 20 keys that its requests take turns with.
// Prints throughput, p50/p99 per category, failures, and the server's peak resident memory.
// The server keeps its default rate limits: there are enough keys that none reaches them (at 1,000 req/s,
// a key of the busiest users, who share two connections, sees about 66 reads, 23 writes and 5
// calculations a minute), and a 429 would count as a failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { atExit } from '../bench/cleanup.js';
import { freshDatabase } from '../bench/postgres.js';
import { startServer } from '../bench/processes.js';
import { runLoad, type LoadResult } from './load/driver.js';
import { HttpClient } from './load/http-client.js';
import { watchMemory } from './load/memory.js';
import { Workload } from './load/workload.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'both' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '64' },
    users: { type: 'string', default: '50' },
    'keys-per-user': { type: 'string', default: '20' },
  },
});
const seconds = Number(values.seconds);
const warmupSeconds = Number(values.warmup);
const connections = Number(values.connections);
const users = Number(values.users);
const keysPerUser = Number(values['keys-per-user']);
const postgresServerUrl = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const progress = (message: string) => console.error(`… ${message}`);

const percentile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]! : NaN);

function printResult(title: string, result: LoadResult, memory: { peakMiB: number; highWaterMiB: number }): void {
  const categories = ['read', 'write', 'calculation'] as const;
  const total = categories.reduce((sum, c) => sum + result[c].latencies.length, 0);
  const failed = categories.reduce((sum, c) => sum + [...result[c].failures.values()].reduce((a, b) => a + b, 0), 0);
  console.log(`\n${title}: ${connections} connections, ${result.seconds} s, ${users} users with ${keysPerUser} keys each`);
  console.log(`  throughput ${(total / result.seconds).toFixed(0)} req/s (${total} requests), failed ${failed}`);
  console.log(
    `  ${'category'.padEnd(12)}${'share'.padStart(7)}${'req/s'.padStart(8)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'failed'.padStart(8)}`,
  );
  for (const category of categories) {
    const { latencies, failures } = result[category];
    const sorted = [...latencies].sort((a, b) => a - b);
    const failedHere = [...failures.values()].reduce((a, b) => a + b, 0);
    console.log(
      `  ${category.padEnd(12)}${`${((100 * latencies.length) / total).toFixed(0)} %`.padStart(7)}${(latencies.length / result.seconds).toFixed(0).padStart(8)}` +
        `${percentile(sorted, 0.5).toFixed(1).padStart(9)}${percentile(sorted, 0.99).toFixed(1).padStart(9)}${String(failedHere).padStart(8)}`,
    );
    for (const [what, count] of failures) console.log(`      ${count} × ${what}`);
  }
  console.log(
    `  server memory: peak RSS under load ${memory.peakMiB.toFixed(0)} MiB; high-water mark since start ${memory.highWaterMiB.toFixed(0)} MiB`,
  );
}

async function measure(title: string, env: Record<string, string>): Promise<void> {
  progress(`${title}: starting the server`);
  const server = await startServer('src/server.ts', { ...env, PORT: '0', HOST: '127.0.0.1', REDIS_URL: '' });
  const client = new HttpClient(server.url, connections);
  try {
    progress(`${title}: ${users} users, each with ${keysPerUser} keys and a farm`);
    const workload = await Workload.create(client, users, keysPerUser, Date.now().toString(36));
    if (warmupSeconds > 0) {
      progress(`${title}: warming up for ${warmupSeconds} s`);
      await runLoad(client, workload, connections, warmupSeconds, 1_000);
    }
    progress(`${title}: measuring for ${seconds} s`);
    const memory = watchMemory(server.pid);
    const result = await runLoad(client, workload, connections, seconds, 2_000);
    printResult(title, result, memory.stop());
  } finally {
    client.close();
    await server.stop();
  }
}

console.log(
  `Akker load test: node ${process.version}, ${availableParallelism()} CPUs shared by the load generator, the server and the database.`,
);
if (values.database === 'both' || values.database === 'embedded') {
  const dataDir = mkdtempSync(join(tmpdir(), 'akker-load-'));
  const forget = atExit(() => rmSync(dataDir, { recursive: true, force: true }));
  await measure('Embedded database (PGlite)', { DATA_DIR: dataDir, DATABASE_URL: '' });
  rmSync(dataDir, { recursive: true, force: true });
  forget();
}
if (values.database === 'both' || values.database === 'postgres') {
  const database = await freshDatabase(postgresServerUrl, 'akker_load');
  try {
    await measure('PostgreSQL', { DATABASE_URL: database.url });
  } finally {
    await database.drop();
  }
}
