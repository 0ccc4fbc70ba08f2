// What the usage norms of a field read: plain stored records (docs/calculations.md), and what each norm answers.
import type { FertilizerEntry } from '../../catalogues/fertilizers.js';
import type { SoilRegion } from './tables.js';

export interface NormsCultivation {
  b_lu: string;
  b_lu_catalogue: string;
  b_lu_start: string;
  /** null: still on the field. */
  b_lu_end: string | null;
  b_lu_variety: string | null;
}

export interface NormsSoilAnalysis {
  b_sampling_date: string | null;
  /** P-CaCl2, mg P/kg. */
  a_p_cc: number | null;
  /** P-AL, mg P2O5/100 g. */
  a_p_al: number | null;
}

export interface NormsApplication {
  p_app_id: string;
  p_app_date: string;
  /** kg product/ha. */
  p_app_amount: number;
  p_id_catalogue: string;
  fertilizer: Pick<FertilizerEntry, 'p_type_rvo' | 'p_n_rt' | 'p_p_rt'>;
}

export interface NormsField {
  b_id: string;
  /** ha */
  b_area: number;
  b_start: string;
  b_end: string | null;
  b_bufferstrip: boolean;
  b_soil_region: SoilRegion | null;
  b_in_nv_area: boolean;
  b_in_gwbg: boolean;
  b_in_natura2000: boolean;
  b_in_derogation_free_zone: boolean;
  /** Any of the field's cultivations; the norms pick those that count. */
  cultivations: NormsCultivation[];
  /** Any of the field's analyses, the most recently recorded first (it wins a tie of sampling dates). */
  soilAnalyses: NormsSoilAnalysis[];
  /** Any of the field's applications; the norms pick those dated in the year. */
  applications: NormsApplication[];
}

export interface NormsFarm {
  /** Years in which the farm holds a derogation. */
  derogationYears: number[];
  grazingIntentions: Array<{ year: number; b_grazing_intention: boolean }>;
  organicCertifications: Array<{ b_organic_issued: string; b_organic_expires: string }>;
}
