// The short fuzz run: requests generated from the OpenAPI document, valid and broken in every way a
// schema allows, from a fixed seed. No 5xx, every answer as documented, every problem with its documented members.
// The long run is `npm run fuzz` (scripts/fuzz.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fuzz, type FuzzReport } from '../fuzz/fuzz.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

const SEED = 20_261_125;
const COUNT = 2_200;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('pglite');
});
afterAll(() => t.close());

const failureLines = (report: FuzzReport) =>
  report.failures.map((f) => `${f.operation} [${f.label}] → ${f.status}: ${f.request}\n    ${f.problems.join('\n    ')}`);

it(`answers ${COUNT} generated requests (seed ${SEED}) as the OpenAPI document says`, async () => {
  const report = await fuzz({ client: async (path, init) => t.app.request(path, init), seed: SEED, count: COUNT });
  expect(report.requests).toBe(COUNT);
  expect(failureLines(report)).toEqual([]);
  expect(report.failed).toBe(0);
  // The run reached past validation into every operation: each answered 2xx at least once.
  const neverSucceeded = [...report.statuses].filter(([, statuses]) => ![...statuses.keys()].some((s) => s < 300)).map(([op]) => op);
  expect(neverSucceeded).toEqual([]);
}, 120_000);
