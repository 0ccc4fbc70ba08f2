// A benchmark farm stored through the API as a client would: its fertilizers and grazing intention, then field
// after field with the same records (cultivations, a harvest, a soil analysis, applications), as a spec says.
import { applyFertilizers, gridFieldGeometry, send, type BenchApp } from './in-process.js';

export interface BenchFarmSpec {
  b_name_farm: string;
  fields: number;
  /** The catalogue fertilizers the farm acquires, by the names `applications` gives them. */
  fertilizers: Record<string, string>;
  /** The 2025 grazing intention, when the farm states one. */
  grazing2025?: boolean;
  /** What field number `index` has besides its name, start and outline. */
  field?: (index: number) => Record<string, unknown>;
  /** Each field's cultivations, in order. */
  cultivations: Array<Record<string, unknown>>;
  /** A harvest of each field's last cultivation, if any. */
  harvestOfLast?: Record<string, unknown>;
  soilAnalysis: Record<string, unknown>;
  /** `[fertilizer name, amount in its display unit, date]`, spread on each field by `method`. */
  applications: ReadonlyArray<readonly [string, number, string]>;
  method: string;
}

/** The farm's identifier, once every record is stored; says how long the fields took. */
export async function seedBenchFarm(bench: BenchApp, spec: BenchFarmSpec): Promise<string> {
  const farm = (await send(bench, 'POST', '/api/farms', { b_name_farm: spec.b_name_farm })).b_id_farm as string;
  if (spec.grazing2025 !== undefined)
    await send(bench, 'PUT', `/api/farms/${farm}/grazing-intentions/2025`, { b_grazing_intention: spec.grazing2025 });
  const fertilizers = new Map<string, string>();
  for (const [name, p_id_catalogue] of Object.entries(spec.fertilizers))
    fertilizers.set(name, (await send(bench, 'POST', `/api/farms/${farm}/fertilizers`, { p_id_catalogue })).p_id as string);
  const applications = spec.applications.map(([name, amount, date]) => [fertilizers.get(name)!, amount, date] as const);
  const started = performance.now();
  for (let f = 0; f < spec.fields; f++) {
    const field = await send(bench, 'POST', `/api/farms/${farm}/fields`, {
      b_name: `Field ${f}`,
      b_start: '2020-01-01',
      ...spec.field?.(f),
      b_geometry: gridFieldGeometry(f),
    });
    let last: string | undefined;
    for (const cultivation of spec.cultivations)
      last = (await send(bench, 'POST', `/api/fields/${field.b_id}/cultivations`, cultivation)).b_lu as string;
    if (spec.harvestOfLast && last) await send(bench, 'POST', `/api/cultivations/${last}/harvests`, spec.harvestOfLast);
    await send(bench, 'POST', `/api/fields/${field.b_id}/soil-analyses`, spec.soilAnalysis);
    await applyFertilizers(bench, field.b_id, applications, spec.method);
  }
  console.log(`stored ${spec.fields} fields with their records through the API in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return farm;
}

/** The four applications of every bench field: slurry and KAS in March, `autumn` on 1 September, KAS in April. */
export const dressings = ([fertilizer, amount]: readonly [string, number]) =>
  [
    ['slurry', 30, '2025-03-20'],
    ['kas', 350, '2025-03-01'],
    [fertilizer, amount, '2025-09-01'],
    ['kas', 200, '2025-04-15'],
  ] as const;

const REGIONS = ['klei', 'veen', 'loess', 'zand_nwc', 'zand_zuid'];

/**
 * The farm of the usage-norms benches: each field with a soil region, winter wheat and then grass (a main crop,
 * a catch-crop history and a change of crop in the year), 4 applications of 3 fertilizers and `soilAnalysis`.
 */
export const normsFarm = (b_name_farm: string, fields: number, soilAnalysis: Record<string, unknown>): BenchFarmSpec => ({
  b_name_farm,
  fields,
  grazing2025: true,
  fertilizers: { slurry: 'BAAT050', kas: 'BAAT028', solid: 'BAAT049' },
  field: (f) => ({ b_soil_region: REGIONS[f % REGIONS.length], b_in_nv_area: f % 3 === 0 }),
  cultivations: [
    { b_lu_catalogue: 'nl_233', b_lu_start: '2024-10-20', b_lu_end: '2025-08-05' },
    { b_lu_catalogue: 'nl_265', b_lu_start: '2025-08-20' },
  ],
  soilAnalysis,
  applications: dressings(['solid', 20]),
  method: 'broadcasting',
});
