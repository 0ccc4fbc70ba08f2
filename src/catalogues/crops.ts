// The BRP crop catalogue (facts from the reference's fdm-data), looked up by b_lu_catalogue.
import { loadJson, storedEntry } from './data.js';

export interface CropEntry {
  b_lu_source: string;
  b_lu_catalogue: string;
  b_lu_name: string;
  b_lu_name_en: string | null;
  b_lu_croprotation: string;
  b_lu_harvestable: 'once' | 'multiple' | 'none';
  b_lu_harvestcat: HarvestCategory | null;
  b_lu_yield: number | null;
  b_lu_dm: number | null;
  b_lu_hi: number | null;
  b_lu_n_harvestable: number | null;
  b_lu_n_residue: number | null;
  b_n_fixation: number | null;
  b_lu_eom: number | null;
  b_lu_eom_residue: number | null;
}

export type HarvestCategory = 'HC010' | 'HC020' | 'HC031' | 'HC040' | 'HC041' | 'HC042' | 'HC050';

export const crops: readonly CropEntry[] = loadJson<CropEntry[]>('cultivations-brp.json');

const byCode = new Map(crops.map((crop) => [crop.b_lu_catalogue, crop]));

export const findCrop = (code: string): CropEntry | undefined => byCode.get(code);

/** The crop of a stored cultivation. */
export const storedCrop = (code: string): CropEntry => storedEntry(byCode, code, 'crop');
