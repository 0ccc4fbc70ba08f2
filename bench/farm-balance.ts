// Issue figure for the calculations: p50/p95 of the nitrogen balance of a farm of 100 fields, each with
// 2 cultivations, 2 harvests, 4 fertilizer applications and 1 soil analysis, on the embedded database.
// Target: p50 ≤ 150 ms. The records are created through the API, as a client would.
import { seedBalanceFarm } from './balance-farm.js';
import { describeTimes, percentile, send, startInProcess, time } from './in-process.js';

const FIELDS = Number(process.env.BENCH_FIELDS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

const bench = await startInProcess();
try {
  const farm = await seedBalanceFarm(bench, FIELDS);
  const body = { start: '2025-01-01', end: '2025-12-31' };
  const result = await send(bench, 'POST', `/api/farms/${farm}/calculations/nitrogen-balance`, body);
  if (result.fields.length !== FIELDS || result.hasErrors)
    throw new Error(`unexpected result: ${result.fields.length} fields, errors ${result.fieldErrorMessages}`);
  console.log(`farm balance ${result.balance} kg N/ha, target ${result.target}`);
  const times = await time(() => send(bench, 'POST', `/api/farms/${farm}/calculations/nitrogen-balance`, body), RUNS);
  console.log(
    `farm nitrogen balance, ${FIELDS} fields (embedded database, in-process): ${describeTimes(times)}; target p50 ≤ 150 ms: ${percentile(times, 50) <= 150 ? 'met' : 'NOT met'}`,
  );
} finally {
  await bench.close();
}
