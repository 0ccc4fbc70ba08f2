// Issue figure for the dose recommendation in amounts of the farm's fertilizers: p50/p95 of the dose of a field
// whose farm holds 20 fertilizers (slurries, solid manures, composts, mineral and Renure products), with 2
// cultivations, a soil analysis and 4 applications, on the embedded database. Target: p50 ≤ 50 ms.
// The records are created through the API, as a client would.
import { describeTimes, gridFieldGeometry, percentile, send, startInProcess, time } from './in-process.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const FERTILIZERS = [
  'BAAT050',
  'BAAT065',
  'BAAT068',
  'BAAT048',
  'BAAT049',
  'BAAT045',
  'BAAT061',
  'BAAT053',
  'BAAT019',
  'BAAT013',
  'BAAT020',
  'BAAT021',
  'BAAT026',
  'BAAT028',
  'BAAT004',
  'BAAT003',
  'BAAT072',
  'BAAT073',
  'BAAT017',
  'BAAT057',
];

const bench = await startInProcess();
try {
  const farm = (await send(bench, 'POST', '/api/farms', { b_name_farm: 'Dose bench' })).b_id_farm as string;
  await send(bench, 'PUT', `/api/farms/${farm}/grazing-intentions/2025`, { b_grazing_intention: true });
  const products: string[] = [];
  for (const p_id_catalogue of FERTILIZERS)
    products.push((await send(bench, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue })).p_id);
  const field = (
    await send(bench, 'POST', `/api/farms/${farm}/fields`, {
      b_name: 'Field',
      b_start: '2020-01-01',
      b_soil_region: 'zand_nwc',
      b_geometry: gridFieldGeometry(0),
    })
  ).b_id as string;
  await send(bench, 'POST', `/api/fields/${field}/cultivations`, {
    b_lu_catalogue: 'nl_233',
    b_lu_start: '2024-10-20',
    b_lu_end: '2025-08-05',
  });
  await send(bench, 'POST', `/api/fields/${field}/cultivations`, { b_lu_catalogue: 'nl_265', b_lu_start: '2025-08-20' });
  await send(bench, 'POST', `/api/fields/${field}/soil-analyses`, { b_sampling_date: '2024-02-15', a_p_cc: 2.1, a_p_al: 38 });
  for (const [product, amount, date] of [
    [0, 15, '2025-03-20'],
    [13, 250, '2025-03-01'],
    [4, 8, '2025-09-01'],
    [10, 4, '2025-09-10'],
  ] as const) {
    await send(bench, 'POST', `/api/fields/${field}/fertilizer-applications`, {
      p_id: products[product],
      p_app_amount_display: amount,
      p_app_date: date,
    });
  }

  const body = { start: '2025-01-01', end: '2025-12-31', application_date: '2025-04-01' };
  const dose = await send(bench, 'POST', `/api/fields/${field}/calculations/dose`, body);
  const fertilizers = dose.recommendation.fertilizers as Array<{ p_name_nl: string; status: string; max_amount_display: number | null }>;
  if (fertilizers.length !== FERTILIZERS.length) throw new Error(`unexpected recommendation: ${fertilizers.length} fertilizers`);
  console.log(fertilizers.map((f) => `${f.p_name_nl}: ${f.status} ${f.max_amount_display ?? ''}`).join('; '));
  const times = await time(() => send(bench, 'POST', `/api/fields/${field}/calculations/dose`, body), RUNS);
  console.log(
    `dose with the recommendation for 20 farm fertilizers (embedded database, in-process): ${describeTimes(times)}; target p50 ≤ 50 ms: ${percentile(times, 50) <= 50 ? 'met' : 'NOT met'}`,
  );
} finally {
  await bench.close();
}
