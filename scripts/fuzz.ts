// The long fuzz run: `npm run fuzz -- --seed 1 --count 20000`. Runs the app in this process on an
// in-memory embedded database (or on DATABASE_URL), with limits of its own (no rate limits, no sign-up
// limit: it signs up accounts and sends thousands of requests with one key), and exits 1 when any
// response broke the contract. The short run is part of `npm test` (test/robustness/fuzz.test.ts).
import { parseArgs } from 'node:util';
import { createApp, createDeps } from '../src/app/app.js';
import { loadConfig } from '../src/core/config.js';
import { openPglite, openPostgres } from '../src/db/client.js';
import { fuzz, type FuzzReport } from '../test/fuzz/fuzz.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    count: { type: 'string', default: '20000' },
  },
});
const seed = Number(values.seed);
const count = Number(values.count);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1) throw new Error('--seed and --count must be whole numbers');

function printReport(report: FuzzReport, seconds: number): void {
  console.log(`\n${report.requests} requests in ${seconds.toFixed(0)} s (seed ${seed}); ${report.failed} broke the contract.`);
  console.log('\nstatuses per operation:');
  for (const [operation, statuses] of [...report.statuses].sort(([a], [b]) => a.localeCompare(b))) {
    const counts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    console.log(`  ${operation.padEnd(58)} ${counts.join(' ')}`);
  }
  for (const failure of report.failures) {
    console.log(`\nFAIL ${failure.operation} [${failure.label}] → ${failure.status}\n  ${failure.request}`);
    for (const problem of failure.problems) console.log(`  - ${problem.slice(0, 500)}`);
  }
}

const databaseUrl = process.env.DATABASE_URL;
const database = databaseUrl ? await openPostgres(databaseUrl) : await openPglite('memory://');
await database.migrate();
// The limits have tests of their own; here they would only stop the run.
const unlimited = {
  RATE_LIMIT_GENERAL: '1000000',
  RATE_LIMIT_WRITE: '1000000',
  RATE_LIMIT_CALCULATION: '1000000',
  SIGNUP_LIMIT_PER_HOUR: '0',
};
console.log('fuzz: the app runs in this process with limits of its own: no rate limits and no sign-up limit.');
const app = createApp(
  createDeps(
    loadConfig({ ...unlimited, DATA_DIR: 'memory://', PUBLIC_URL: 'http://fuzz.test', DATABASE_URL: databaseUrl ?? '' }),
    database,
  ),
);

// Unexpected errors are logged by the app as well; the report names them, so the log stays quiet.
const logError = console.error;
let serverErrors = 0;
console.error = () => void serverErrors++;
const started = performance.now();
const report = await fuzz({
  client: async (path, init) => app.request(path, init),
  seed,
  count,
  progressEvery: 1000,
  onProgress: (done, failed) => process.stderr.write(`… ${done} requests, ${failed} failed\n`),
});
console.error = logError;
printReport(report, (performance.now() - started) / 1000);
if (serverErrors) console.log(`\nthe app logged ${serverErrors} unexpected errors`);
await database.close();
process.exit(report.failed === 0 && serverErrors === 0 ? 0 : 1);
