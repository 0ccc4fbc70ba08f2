// The farm the balance benches calculate: `fields` fields, each with 2 cultivations, 2 harvests, 4 fertilizer
// applications and 1 soil analysis in 2025, created through the API as a client would.
import { dressings, seedBenchFarm } from './bench-farm.js';
import type { BenchApp } from './in-process.js';

/** The farm's identifier, once every record is stored. */
export const seedBalanceFarm = (bench: BenchApp, fields: number): Promise<string> =>
  seedBenchFarm(bench, {
    b_name_farm: 'Balance bench',
    fields,
    fertilizers: { slurry: 'BAAT050', kas: 'BAAT028' },
    // Winter wheat (its harvest stored with its end date) and grass with a recorded cut: 2 cultivations, 2 harvests.
    cultivations: [
      { b_lu_catalogue: 'nl_233', b_lu_start: '2024-10-20', b_lu_end: '2025-08-05', m_cropresidue: false },
      { b_lu_catalogue: 'nl_265', b_lu_start: '2025-08-20' },
    ],
    harvestOfLast: { b_lu_harvest_date: '2025-10-01', b_lu_yield: 1800, b_lu_cp: 200 },
    soilAnalysis: { b_sampling_date: '2025-02-15', b_soiltype_agr: 'zeeklei', b_gwl_class: 'VI', a_som_loi: 3.5, a_n_rt: 1800 },
    applications: dressings(['slurry', 25]),
    method: 'shallow injection',
  });
