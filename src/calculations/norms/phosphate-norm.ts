// The phosphate usage norm (fosfaatgebruiksnorm): the class of the soil's P-CaCl2 and P-AL, for grassland
// or arable land by the main crop.
import { D } from '../numbers.js';
import { notApplicable, type NormOutcome } from './errors.js';
import type { MainCrop } from './main-crop.js';
import { BUFFER_STRIP_SOURCE } from './nitrogen-norm.js';
import { fromTable, phosphateClasses, phosphateNorms, type NormYear, type PhosphateClass } from './tables.js';

const within = (value: number, min: number | null, max: number | null) => (min === null || value >= min) && (max === null || value <= max);

/** Values are rounded half-up as written in decimals (1.45 → 1.5) before they are looked up. */
export function phosphateClass(landUse: 'grasland' | 'bouwland', pCc: number, pAl: number): PhosphateClass | undefined {
  const cc = new D(pCc).toDecimalPlaces(1).toNumber();
  const al = new D(pAl).toDecimalPlaces(0).toNumber();
  return phosphateClasses.find(
    (row) => row.land_use === landUse && within(cc, row.p_cc_min, row.p_cc_max) && within(al, row.p_al_min, row.p_al_max),
  )?.fosfaatklasse;
}

export function phosphateNorm(
  bufferstrip: boolean,
  soil: { a_p_cc: number | null; a_p_al: number | null },
  main: MainCrop,
  year: NormYear,
): NormOutcome {
  if (bufferstrip) return { normValue: 0, normSource: BUFFER_STRIP_SOURCE };
  const missing = notApplicable(`Missing soil analysis data for NL ${year} Fosfaatgebruiksnorm`);
  if (soil.a_p_cc === null || soil.a_p_al === null) return missing;
  const landUse = main.isGrassland ? 'grasland' : 'bouwland';
  // The classes cover every pair of values Akker accepts; a value out of every row counts as missing data.
  const klass = phosphateClass(landUse, soil.a_p_cc, soil.a_p_al);
  if (!klass) return missing;
  const norms = fromTable(phosphateNorms[year], 'phosphate-norms.json', `norms for ${year}`);
  return { normValue: norms[klass][landUse], normSource: `${landUse === 'grasland' ? 'Grasland' : 'Bouwland'}: ${klass}` };
}
