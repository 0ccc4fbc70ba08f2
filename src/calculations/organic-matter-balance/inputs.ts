// What the organic-matter balance reads: the records of the nitrogen balance for the same timeframe
// (docs/calculations.md "What a timeframe selects"), of which it uses fewer members.
import type { Database } from '../../db/client.js';
import type { Timeframe } from '../dates.js';
import { loadBalanceFields, type FieldSelection, type FieldsByFarm } from '../inputs.js';
import type { BalanceApplication, BalanceCultivation, BalanceField, BalanceSoilAnalysis } from '../nitrogen-balance/inputs.js';

export type OrganicMatterCultivation = Pick<BalanceCultivation, 'b_lu' | 'b_lu_start' | 'b_lu_end' | 'm_cropresidue' | 'crop'>;
export type OrganicMatterApplication = Pick<BalanceApplication, 'p_app_id' | 'p_app_amount' | 'p_app_date' | 'fertilizer'>;

export interface OrganicMatterField extends Pick<BalanceField, 'b_id' | 'b_area' | 'b_bufferstrip'> {
  /** Cultivations overlapping the timeframe. */
  cultivations: OrganicMatterCultivation[];
  /** Analyses sampled within the timeframe, or without a sampling date, the most recently recorded first. */
  soilAnalyses: BalanceSoilAnalysis[];
  /** Applications dated within the timeframe. */
  applications: OrganicMatterApplication[];
}

/** One field whatever its dates, or the farms' fields whose own period overlaps the timeframe, by farm. */
export const readOrganicMatterFields = (
  db: Database,
  selection: FieldSelection,
  timeframe: Timeframe,
): Promise<FieldsByFarm<OrganicMatterField>> => loadBalanceFields(db, selection, timeframe);
