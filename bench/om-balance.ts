// Issue figure for the organic-matter balance: p50/p95 of the balance of a farm of 100 fields, each with
// 2 cultivations, 4 fertilizer applications and 1 soil analysis (and 2 harvests), on the embedded database,
// in-process. Target: p50 ≤ 150 ms. The farm is the one the nitrogen-balance bench calculates.
import { seedBalanceFarm } from './balance-farm.js';
import { describeTimes, percentile, send, startInProcess, time } from './in-process.js';

const FIELDS = Number(process.env.BENCH_FIELDS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

const bench = await startInProcess();
try {
  const farm = await seedBalanceFarm(bench, FIELDS);
  const path = `/api/farms/${farm}/calculations/organic-matter-balance`;
  const body = { start: '2025-01-01', end: '2025-12-31' };
  const result = await send(bench, 'POST', path, body);
  if (result.fields.length !== FIELDS || result.hasErrors)
    throw new Error(`unexpected result: ${result.fields.length} fields, errors ${result.fieldErrorMessages}`);
  console.log(`farm balance ${result.balance} kg/ha (supply ${result.supply}, degradation ${result.degradation})`);
  const times = await time(() => send(bench, 'POST', path, body), RUNS);
  console.log(
    `farm organic-matter balance, ${FIELDS} fields (embedded database, in-process): ${describeTimes(times)}; target p50 ≤ 150 ms: ${percentile(times, 50) <= 150 ? 'met' : 'NOT met'}`,
  );
} finally {
  await bench.close();
}
