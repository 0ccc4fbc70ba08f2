// The SRM and BAAT fertilizer catalogues (facts from the reference's fdm-data).
import { Decimal } from 'decimal.js';
import { loadJson, storedEntry } from './data.js';

export type AmountUnit = 'kg/ha' | 'ton/ha' | 'l/ha' | 'm3/ha';

export interface FertilizerEntry {
  p_source: 'srm' | 'baat';
  p_id_catalogue: string;
  p_name_nl: string;
  p_type: 'mineral' | 'manure' | 'compost' | null;
  p_type_rvo: string | null;
  p_app_amount_unit: AmountUnit;
  p_app_method_options: string[];
  p_n_rt: number | null;
  p_no3_rt: number | null;
  p_nh4_rt: number | null;
  p_n_wc: number | null;
  p_s_rt: number | null;
  p_ef_nh3: number | null;
  p_p_rt: number | null;
  p_k_rt: number | null;
  p_eoc: number | null;
  p_eom: number | null;
  p_mg_rt: number | null;
  p_ca_rt: number | null;
  p_na_rt: number | null;
  p_cu_rt: number | null;
  p_zn_rt: number | null;
  p_co_rt: number | null;
  p_mn_rt: number | null;
  p_mo_rt: number | null;
  p_b_rt: number | null;
  p_dm: number | null;
  p_density: number | null;
}

export const fertilizerCatalogue: readonly FertilizerEntry[] = [
  ...loadJson<FertilizerEntry[]>('fertilizers-srm.json'),
  ...loadJson<FertilizerEntry[]>('fertilizers-baat.json'),
];

const byId = new Map(fertilizerCatalogue.map((entry) => [entry.p_id_catalogue, entry]));

export const findFertilizer = (catalogueId: string): FertilizerEntry | undefined => byId.get(catalogueId);

/** The product of a stored fertilizer. */
export const storedFertilizer = (catalogueId: string): FertilizerEntry => storedEntry(byId, catalogueId, 'fertilizer');

export const applicationMethods = [
  'slotted coulter',
  'incorporation',
  'incorporation 2 tracks',
  'injection',
  'shallow injection',
  'spraying',
  'broadcasting',
  'spoke wheel',
  'pocket placement',
  'narrowband',
] as const;

/**
 * How an amount as sent, in the product's unit, becomes kg/ha (docs/calculations.md), in decimals
 * (30 m3/ha × 1.005 kg/l is 30150 kg/ha, not 30149.999999999996); undefined when a volume
 * unit meets a product without a positive density.
 */
export function kgPerHaConversion(unit: AmountUnit, density: number | null): ((amount: number) => number) | undefined {
  switch (unit) {
    case 'kg/ha':
      return (amount) => amount;
    case 'ton/ha':
      return (amount) => new Decimal(amount).times(1000).toNumber();
    case 'l/ha':
      return density !== null && density > 0 ? (amount) => new Decimal(amount).times(density).toNumber() : undefined;
    case 'm3/ha':
      return density !== null && density > 0 ? (amount) => new Decimal(amount).times(1000).times(density).toNumber() : undefined;
  }
}

/** The amount as sent, in the product's unit, in kg/ha; undefined when it has no conversion (kgPerHaConversion). */
export const amountInKgPerHa = (amount: number, unit: AmountUnit, density: number | null): number | undefined =>
  kgPerHaConversion(unit, density)?.(amount);
