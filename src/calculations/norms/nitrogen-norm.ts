// The nitrogen usage norm (stikstofgebruiksnorm): the Tabel 2 value of the main crop for the soil region,
// less the reduction, never below 0.
import { isFailure, noSoilRegion, notApplicable, notDeterminable, type NormOutcome } from './errors.js';
import type { NormsCultivation, NormsField } from './inputs.js';
import type { MainCrop } from './main-crop.js';
import { chooseEntry, entryNorms, subTypeDescription } from './nitrogen-entry.js';
import { nitrogenReduction } from './nitrogen-reduction.js';
import type { FarmYear } from './records.js';
import { nitrogenStandards } from './tables.js';

export const BUFFER_STRIP_SOURCE = 'Bufferstrook: geen plaatsingsruimte';

/** `cultivations`: those selected for the norm values, `main` their main crop. */
export function nitrogenNorm(field: NormsField, farm: FarmYear, cultivations: NormsCultivation[], main: MainCrop): NormOutcome {
  if (field.b_bufferstrip) return { normValue: 0, normSource: BUFFER_STRIP_SOURCE };
  const region = field.b_soil_region;
  if (region === null) return noSoilRegion;
  const entry = chooseEntry(nitrogenStandards[farm.year].candidates(main.code));
  if (!entry) return notApplicable(`No matching nitrogen standard found for b_lu_catalogue ${main.code}.`);
  const description = subTypeDescription(entry, main, farm, cultivations);
  const norms = entryNorms(entry, description, main.record, farm.year);
  if (!norms) return notDeterminable(`Applicable norms object is undefined for ${entry.cultivation_rvo_table2} in region ${region}.`);
  const reduction = nitrogenReduction(region, field.b_in_nv_area, farm, cultivations, main);
  if (isFailure(reduction)) return reduction;
  const tableValue = field.b_in_nv_area ? norms[region].nv_area : norms[region].standard;
  return {
    normValue: Math.max(0, tableValue - reduction.reduction),
    normSource: `${entry.cultivation_rvo_table2}${description === undefined ? '' : ` (${description})`}${reduction.text}`,
  };
}
