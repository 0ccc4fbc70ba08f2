// The short fuzz run: requests generated from the OpenAPI document, valid and broken in every way a
// schema allows, from a fixed seed. No 5xx, every answer as documented, every problem with its documented members.
// The long run is `npm run fuzz` (scripts/fuzz.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzz, type FuzzReport } from '../fuzz/fuzz.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { storageKinds } from '../helpers/databases.js';

const SEED = 20_261_125;
const COUNT = 1_600;

const failureLines = (report: FuzzReport) =>
  report.failures.map((f) => `${f.operation} [${f.label}] → ${f.status}: ${f.request}\n    ${f.problems.join('\n    ')}`);

describe.each(storageKinds)('the fuzzer on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it(`answers ${COUNT} generated requests (seed ${SEED}) as the OpenAPI document says`, async () => {
    const report = await fuzz({ client: async (path, init) => t.app.request(path, init), seed: SEED, count: COUNT });
    expect(report.requests).toBe(COUNT);
    expect(failureLines(report)).toEqual([]);
    expect(report.failed).toBe(0);
    // The run reached past validation into every operation: each answered 2xx at least once.
    const neverSucceeded = [...report.statuses].filter(([, statuses]) => ![...statuses.keys()].some((s) => s < 300)).map(([op]) => op);
    expect(neverSucceeded).toEqual([]);
  }, 300_000);
});

it('runs as `npm run fuzz` does on default settings: the script sets limits of its own and says so', async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  // The limits as a fresh checkout has them: none of the test run's settings.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(RATE_LIMIT_|SIGNUP|DATABASE_URL$)/.test(name)));
  // Past the 174–250 requests after which the default sign-up limit stopped it.
  const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/fuzz.ts', '--seed', '3', '--count', '300'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 280_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(run.stdout).toContain('limits of its own');
  expect(run.stdout).toContain('300 requests');
  expect(run.stdout).toContain('0 broke the contract');
}, 300_000);
