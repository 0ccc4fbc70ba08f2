// The farm the balance benches calculate: `fields` fields, each with 2 cultivations, 2 harvests, 4 fertilizer
// applications and 1 soil analysis in 2025, created through the API as a client would.
import { applyFertilizers, gridFieldGeometry, send, type BenchApp } from './in-process.js';

/** The farm's identifier, once every record is stored. */
export async function seedBalanceFarm(bench: BenchApp, fields: number): Promise<string> {
  const farm = (await send(bench, 'POST', '/api/farms', { b_name_farm: 'Balance bench' })).b_id_farm as string;
  const slurry = (await send(bench, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT050' })).p_id as string;
  const kas = (await send(bench, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue: 'BAAT028' })).p_id as string;
  const started = performance.now();
  for (let f = 0; f < fields; f++) {
    const field = await send(bench, 'POST', `/api/farms/${farm}/fields`, {
      b_name: `Field ${f}`,
      b_start: '2020-01-01',
      b_geometry: gridFieldGeometry(f),
    });
    // Winter wheat (its harvest stored with its end date) and grass with a recorded cut: 2 cultivations, 2 harvests.
    await send(bench, 'POST', `/api/fields/${field.b_id}/cultivations`, {
      b_lu_catalogue: 'nl_233',
      b_lu_start: '2024-10-20',
      b_lu_end: '2025-08-05',
      m_cropresidue: false,
    });
    const grass = await send(bench, 'POST', `/api/fields/${field.b_id}/cultivations`, {
      b_lu_catalogue: 'nl_265',
      b_lu_start: '2025-08-20',
    });
    await send(bench, 'POST', `/api/cultivations/${grass.b_lu}/harvests`, {
      b_lu_harvest_date: '2025-10-01',
      b_lu_yield: 1800,
      b_lu_cp: 200,
    });
    await send(bench, 'POST', `/api/fields/${field.b_id}/soil-analyses`, {
      b_sampling_date: '2025-02-15',
      b_soiltype_agr: 'zeeklei',
      b_gwl_class: 'VI',
      a_som_loi: 3.5,
      a_n_rt: 1800,
    });
    await applyFertilizers(
      bench,
      field.b_id,
      [
        [slurry, 30, '2025-03-20'],
        [kas, 350, '2025-03-01'],
        [slurry, 25, '2025-09-01'],
        [kas, 200, '2025-04-15'],
      ] as const,
      'shallow injection',
    );
  }
  console.log(`stored ${fields} fields with their records through the API in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return farm;
}
