// Issue figure for the usage norms: p50/p95 of the norms of a farm of 100 fields, each with a soil region,
// 2 cultivations, 4 fertilizer applications and 1 soil analysis, on the embedded database. Target: p50 ≤ 150 ms.
// The records are created through the API, as a client would.
import { describeTimes, applyFertilizers, gridFieldGeometry, percentile, send, startInProcess, time } from './in-process.js';

const FIELDS = Number(process.env.BENCH_FIELDS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const REGIONS = ['klei', 'veen', 'loess', 'zand_nwc', 'zand_zuid'];

const bench = await startInProcess();
try {
  const farm = (await send(bench, 'POST', '/api/farms', { b_name_farm: 'Norms bench' })).b_id_farm as string;
  await send(bench, 'PUT', `/api/farms/${farm}/grazing-intentions/2025`, { b_grazing_intention: true });
  const slurry = (await send(bench, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT050' })).p_id as string;
  const kas = (await send(bench, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT028' })).p_id as string;
  const solid = (await send(bench, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT049' })).p_id as string;
  const started = performance.now();
  for (let f = 0; f < FIELDS; f++) {
    const field = await send(bench, 'POST', `/api/farms/${farm}/fields`, {
      b_name: `Field ${f}`,
      b_start: '2020-01-01',
      b_soil_region: REGIONS[f % REGIONS.length],
      b_in_nv_area: f % 3 === 0,
      b_geometry: gridFieldGeometry(f),
    });
    // Winter wheat and then grass: a main crop, a catch-crop history and a change of crop in the year.
    await send(bench, 'POST', `/api/fields/${field.b_id}/cultivations`, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2024-10-20',
      b_lu_end: '2025-08-05',
    });
    await send(bench, 'POST', `/api/fields/${field.b_id}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-08-20' });
    await send(bench, 'POST', `/api/fields/${field.b_id}/soil-analyses`, { b_sampling_date: '2024-02-15', a_p_cc: 2.1, a_p_al: 38 });
    await applyFertilizers(
      bench,
      field.b_id,
      [
        [slurry, 30, '2025-03-20'],
        [kas, 350, '2025-03-01'],
        [solid, 20, '2025-09-01'],
        [kas, 200, '2025-04-15'],
      ] as const,
      'broadcasting',
    );
  }
  console.log(`stored ${FIELDS} fields with their records through the API in ${((performance.now() - started) / 1000).toFixed(1)} s`);

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
