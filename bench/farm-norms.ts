// Issue figure for the usage norms: p50/p95 of the norms of a farm of 100 fields, each with a soil region,
// 2 cultivations, 4 fertilizer applications and 1 soil analysis, on the embedded database. Target: p50 ≤ 150 ms.
// The records are created through the API, as a client would.
import { normsFarm, seedBenchFarm } from './bench-farm.js';
import { describeTimes, percentile, send, startInProcess, time } from './in-process.js';

const FIELDS = Number(process.env.BENCH_FIELDS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);

const bench = await startInProcess();
try {
  const farm = await seedBenchFarm(bench, normsFarm('Norms bench', FIELDS, { b_sampling_date: '2024-02-15', a_p_cc: 2.1, a_p_al: 38 }));

  const body = { year: 2025 };
  const result = await send(bench, 'POST', `/api/farms/${farm}/calculations/norms`, body);
  if (result.fields.length !== FIELDS || result.fieldsLeftOut.length > 0)
    throw new Error(`unexpected result: ${result.fields.length} fields, left out ${JSON.stringify(result.fieldsLeftOut)}`);
  console.log(`farm norms ${JSON.stringify(result.norms)}, filling ${JSON.stringify(result.filling)}`);
  const times = await time(() => send(bench, 'POST', `/api/farms/${farm}/calculations/norms`, body), RUNS);
  console.log(
    `farm usage norms, ${FIELDS} fields (embedded database, in-process): ${describeTimes(times)}; target p50 ≤ 150 ms: ${percentile(times, 50) <= 150 ? 'met' : 'NOT met'}`,
  );
} finally {
  await bench.close();
}
