// Harvest measurements → the stored yield (kg DM/ha) and N content (g N/kg DM), by the
// crop's harvest category (docs/calculations.md). Decimal arithmetic, rounded half away from zero.
import { Decimal } from 'decimal.js';
import type { CropEntry, HarvestCategory } from '../../catalogues/crops.js';

export const harvestInputNames = [
  'b_lu_yield',
  'b_lu_yield_fresh',
  'b_lu_yield_bruto',
  'b_lu_tarra',
  'b_lu_dm',
  'b_lu_moist',
  'b_lu_uww',
  'b_lu_cp',
  'b_lu_n_harvestable',
] as const;

export type HarvestInputName = (typeof harvestInputNames)[number];
export type HarvestInputs = Partial<Record<HarvestInputName, number | null>>;

const D = Decimal.clone({ precision: 20, rounding: Decimal.ROUND_HALF_UP });
const round = (value: Decimal) => value.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();

type Values = Record<HarvestInputName, Decimal>;

const categories: Record<HarvestCategory, { required: HarvestInputName[]; yield: (v: Values) => number; n: (v: Values) => number }> = {
  HC010: {
    required: ['b_lu_yield_fresh', 'b_lu_dm', 'b_lu_n_harvestable'],
    yield: (v) => round(v.b_lu_yield_fresh.times(v.b_lu_dm).div(1000)),
    n: (v) => v.b_lu_n_harvestable.toNumber(),
  },
  HC020: { required: ['b_lu_yield', 'b_lu_cp'], yield: (v) => v.b_lu_yield.toNumber(), n: (v) => round(v.b_lu_cp.div(6.25)) },
  HC031: { required: ['b_lu_yield', 'b_lu_cp'], yield: (v) => v.b_lu_yield.toNumber(), n: (v) => round(v.b_lu_cp.div(6.25)) },
  HC040: {
    required: ['b_lu_yield_bruto', 'b_lu_tarra', 'b_lu_dm', 'b_lu_n_harvestable'],
    yield: (v) => round(new D(100).minus(v.b_lu_tarra).div(100).times(v.b_lu_yield_bruto).times(v.b_lu_dm).div(1000)),
    n: (v) => v.b_lu_n_harvestable.toNumber(),
  },
  HC041: {
    required: ['b_lu_yield_bruto', 'b_lu_tarra', 'b_lu_dm', 'b_lu_n_harvestable'],
    yield: (v) => round(new D(100).minus(v.b_lu_tarra).div(100).times(v.b_lu_yield_bruto).times(v.b_lu_dm).div(1000)),
    n: (v) => v.b_lu_n_harvestable.toNumber(),
  },
  HC042: {
    required: ['b_lu_yield_bruto', 'b_lu_tarra', 'b_lu_uww', 'b_lu_n_harvestable'],
    // dry matter from the underwater weight (g per 5 kg): (uww × 0.049 + 2) × 10 g/kg
    yield: (v) => {
      const dm = v.b_lu_uww.times(0.049).plus(2).times(10);
      return round(new D(100).minus(v.b_lu_tarra).div(100).times(v.b_lu_yield_bruto).times(dm).div(1000));
    },
    n: (v) => v.b_lu_n_harvestable.toNumber(),
  },
  HC050: {
    required: ['b_lu_yield_fresh', 'b_lu_moist', 'b_lu_cp'],
    yield: (v) => round(v.b_lu_yield_fresh.times(new D(100).minus(v.b_lu_moist)).times(10).div(1000)),
    n: (v) => round(v.b_lu_cp.div(5.7)),
  },
};

export type Conversion =
  | { ok: true; b_lu_yield: number | null; b_lu_n_harvestable: number | null }
  | { ok: false; missing: HarvestInputName[]; category: HarvestCategory };

export function convertHarvest(category: HarvestCategory | null, inputs: HarvestInputs): Conversion {
  const sent = new Map<HarvestInputName, number>();
  for (const name of harvestInputNames) {
    const value = inputs[name];
    if (value !== undefined && value !== null) sent.set(name, value);
  }
  // Without any measurement nothing is converted: the balance falls back to the catalogue.
  if (sent.size === 0) return { ok: true, b_lu_yield: null, b_lu_n_harvestable: null };
  if (category === null) return { ok: true, b_lu_yield: 0, b_lu_n_harvestable: 0 };
  const rule = categories[category];
  const missing = rule.required.filter((name) => !sent.has(name));
  if (missing.length > 0) return { ok: false, missing, category };
  const values = Object.fromEntries([...sent].map(([name, value]) => [name, new D(value)])) as Values;
  return { ok: true, b_lu_yield: rule.yield(values), b_lu_n_harvestable: rule.n(values) };
}

/** Crude protein (g/kg DM) from the N content, by the factor of the category's conversion; 170 where it is not used. */
function defaultCrudeProtein(category: HarvestCategory, n: number | null): number | null {
  const factor = category === 'HC020' || category === 'HC031' ? 6.25 : category === 'HC050' ? 5.7 : undefined;
  if (factor === undefined) return 170;
  return n === null ? null : round(new D(n).times(factor));
}

/** The measurements of the automatic harvest of a once-harvestable crop, from its catalogue row (2.4). */
export function defaultHarvestInputs(crop: CropEntry): HarvestInputs {
  const category = crop.b_lu_harvestcat;
  if (category === null) return { b_lu_yield: crop.b_lu_yield };
  const { b_lu_yield: y, b_lu_dm: dm, b_lu_n_harvestable: n } = crop;
  const fresh = y !== null && dm ? new D(y).div(new D(dm).div(1000)) : null;
  const defaults: HarvestInputs = {
    b_lu_yield: y,
    b_lu_yield_fresh: fresh && round(fresh),
    b_lu_yield_bruto: fresh && round(fresh.div(0.95)),
    b_lu_tarra: 5,
    b_lu_dm: dm,
    b_lu_moist: dm === null ? null : round(new D(1000).minus(dm).div(10)),
    b_lu_uww: dm === null ? null : round(new D(dm).div(10).minus(2).div(0.049)),
    b_lu_cp: defaultCrudeProtein(category, n),
    b_lu_n_harvestable: n,
  };
  return Object.fromEntries(categories[category].required.map((name) => [name, defaults[name] ?? null]));
}
