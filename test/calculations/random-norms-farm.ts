// Seeded random farms for the usage norms: one field with its crops, soil phosphate and applications of the
// year, and the farm's facts, both as API bodies (to store them) and as the norms' inputs (to compute directly).
import { amountInKgPerHa, findFertilizer } from '../../src/catalogues/fertilizers.js';
import type { NormsFarm, NormsField } from '../../src/calculations/norms/inputs.js';
import type { FarmProduct } from '../../src/calculations/norms/product-room.js';
import type { NormYear, SoilRegion } from '../../src/calculations/norms/tables.js';

/** mulberry32: a small PRNG whose sequence depends on the seed only. */
export function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
type Random = ReturnType<typeof prng>;

// Slurries, solid manures and composts (organic-rich among them), mineral N and N+P, Renure, a product without
// N or P, and two volumes without density.
const PRODUCTS = [
  'BAAT050',
  'BAAT065',
  'BAAT068',
  'BAAT049',
  'BAAT045',
  'BAAT061',
  'BAAT053',
  'BAAT019',
  'BAAT013',
  'BAAT020',
  'BAAT021',
  '0fa8fb5bc763ad9b',
  'BAAT026',
  'BAAT028',
  'BAAT004',
  'BAAT003',
  'BAAT072',
  'BAAT073',
  'BAAT017',
  '46bd49cbb67bc7b7',
  '982cffd52eb5a270',
  'BAAT035',
  'BAAT054',
] as const;
// Grassland, temporary grassland, winter wheat, maize, potatoes, sugar beet; now and then onions (no nitrogen
// norm) or herbs (a sub-type that cannot be told).
const CROPS = ['nl_265', 'nl_266', 'nl_233', 'nl_259', 'nl_2014', 'nl_256'] as const;
const CROPS_WITHOUT_NITROGEN_NORM = ['nl_262', 'nl_2743'] as const;
const crop = (r: Random) => (r.chance(0.05) ? r.pick(CROPS_WITHOUT_NITROGEN_NORM) : r.pick(CROPS));
const REGIONS: SoilRegion[] = ['klei', 'veen', 'loess', 'zand_nwc', 'zand_zuid'];

const pad = (n: number) => String(n).padStart(2, '0');
const day = (r: Random, year: number, from = 1, to = 12) => `${year}-${pad(r.int(from, to))}-${pad(r.int(1, 28))}`;

/** A typical amount per hectare in the product's unit, one decimal. */
function displayAmount(r: Random, unit: string) {
  const [min, max] = unit === 'kg/ha' ? [20, 300] : unit === 'l/ha' ? [50, 200] : [2, 20];
  return Math.round((min + r.next() * (max - min)) * 10) / 10;
}

export interface RandomNormsFarm {
  year: NormYear;
  derogation: boolean;
  grazing: boolean;
  organicCertified: boolean;
  field: Pick<
    NormsField,
    'b_start' | 'b_bufferstrip' | 'b_soil_region' | 'b_in_nv_area' | 'b_in_gwbg' | 'b_in_natura2000' | 'b_in_derogation_free_zone'
  >;
  cultivations: Array<{ b_lu_catalogue: string; b_lu_start: string; b_lu_end: string | null; b_lu_variety: string | null }>;
  soilAnalyses: Array<{ b_sampling_date: string; a_p_cc: number; a_p_al: number }>;
  /** Catalogue ids of the farm's fertilizers, in the order acquired. */
  products: string[];
  applications: Array<{ product: number; p_app_date: string; p_app_amount_display: number }>;
  /** The day the recommendation weighs each product on. */
  applicationDate: string;
}

export function randomNormsFarm(r: Random): RandomNormsFarm {
  const year: NormYear = r.chance(0.5) ? 2025 : 2026;
  const products = [...new Set(Array.from({ length: r.int(3, 7) }, () => r.pick(PRODUCTS)))];
  const storable = products.flatMap((id, index) => {
    const f = findFertilizer(id)!;
    return amountInKgPerHa(1, f.p_app_amount_unit, f.p_density) === undefined ? [] : [{ index, unit: f.p_app_amount_unit }];
  });
  // A crop from the autumn before and one in the year, sometimes only one, sometimes a gap between them.
  const first = { b_lu_catalogue: crop(r), b_lu_start: day(r, year - 1, 8, 11), b_lu_end: null as string | null, b_lu_variety: null };
  const cultivations = [first];
  if (r.chance(0.7)) {
    first.b_lu_end = day(r, year, 2, 7);
    const start = r.chance(0.8) ? first.b_lu_end : day(r, year, 7, 9);
    cultivations.push({
      b_lu_catalogue: crop(r),
      b_lu_start: start > first.b_lu_end ? start : first.b_lu_end,
      b_lu_end: null,
      b_lu_variety: null,
    });
  }
  return {
    year,
    derogation: year === 2025 && r.chance(0.3),
    grazing: r.chance(0.5),
    organicCertified: r.chance(0.2),
    field: {
      b_start: '2015-01-01',
      b_bufferstrip: r.chance(0.04),
      b_soil_region: r.chance(0.03) ? null : r.pick(REGIONS),
      b_in_nv_area: r.chance(0.3),
      b_in_gwbg: r.chance(0.1),
      b_in_natura2000: r.chance(0.1),
      b_in_derogation_free_zone: r.chance(0.1),
    },
    cultivations,
    soilAnalyses: r.chance(0.95)
      ? [{ b_sampling_date: day(r, year - 2), a_p_cc: Math.round(r.next() * 50) / 10, a_p_al: r.int(10, 70) }]
      : [],
    products,
    applications:
      storable.length === 0
        ? []
        : Array.from({ length: r.int(0, 3) }, () => {
            const { index, unit } = r.pick(storable);
            return { product: index, p_app_date: day(r, year), p_app_amount_display: displayAmount(r, unit) };
          }),
    applicationDate: day(r, year),
  };
}

/** The farm's fertilizers as the recommendation reads them; `p_id`: the identifier of each, default its catalogue id. */
export const farmProducts = (farm: RandomNormsFarm, ids: string[] = farm.products): FarmProduct[] =>
  farm.products.map((id, i) => ({ p_id: ids[i]!, p_id_catalogue: id, fertilizer: findFertilizer(id)! }));

/** The farm and its field as the norms read them, amounts converted as the store converts them. */
export function normsInputs(farm: RandomNormsFarm): { field: NormsField; farm: NormsFarm } {
  return {
    farm: {
      derogationYears: farm.derogation ? [farm.year] : [],
      grazingIntentions: [{ year: farm.year, b_grazing_intention: farm.grazing }],
      organicCertifications: farm.organicCertified
        ? [{ b_organic_issued: `${farm.year}-01-01`, b_organic_expires: `${farm.year + 2}-01-01` }]
        : [],
    },
    field: {
      b_id: 'field',
      b_area: 1,
      b_end: null,
      ...farm.field,
      cultivations: farm.cultivations.map((c, i) => ({ b_lu: `c${i}`, ...c })),
      soilAnalyses: farm.soilAnalyses,
      applications: farm.applications.map((a, i) => {
        const id = farm.products[a.product]!;
        const f = findFertilizer(id)!;
        return {
          p_app_id: `a${i}`,
          p_app_date: a.p_app_date,
          p_app_amount: amountInKgPerHa(a.p_app_amount_display, f.p_app_amount_unit, f.p_density)!,
          p_id_catalogue: id,
          fertilizer: f,
        };
      }),
    },
  };
}
