// What the nitrogen balance of one field reads: plain records, already selected for the timeframe
// (docs/calculations.md), with the catalogue rows they refer to.
import type { CropEntry } from '../../catalogues/crops.js';
import type { FertilizerEntry } from '../../catalogues/fertilizers.js';

export interface BalanceCultivation {
  b_lu: string;
  b_lu_start: string;
  b_lu_end: string | null;
  m_cropresidue: boolean | null;
  crop: CropEntry;
}

export interface BalanceHarvest {
  b_id_harvesting: string;
  b_lu: string;
  b_lu_harvest_date: string;
  b_lu_yield: number | null;
  b_lu_n_harvestable: number | null;
}

export interface BalanceSoilAnalysis {
  b_sampling_date: string | null;
  parameters: Record<string, number | string | undefined>;
}

export interface BalanceApplication {
  p_app_id: string;
  p_id: string;
  p_app_amount: number;
  p_app_method: string | null;
  p_app_date: string;
  fertilizer: FertilizerEntry;
}

export interface BalanceField {
  b_id: string;
  b_area: number;
  b_start: string;
  b_end: string | null;
  b_bufferstrip: boolean;
  /** Cultivations overlapping the timeframe. */
  cultivations: BalanceCultivation[];
  /** Harvests of those cultivations dated within the timeframe. */
  harvests: BalanceHarvest[];
  /** Analyses sampled within the timeframe, or without a sampling date. */
  soilAnalyses: BalanceSoilAnalysis[];
  /** Applications dated within the timeframe. */
  applications: BalanceApplication[];
}

/**
 * A field that cannot be calculated. `message` is the reference's wording (clients compare it);
 * `hint` says how to make the field calculable.
 */
export class FieldCalculationError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}
