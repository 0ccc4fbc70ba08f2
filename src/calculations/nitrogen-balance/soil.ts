// Combining a field's soil analyses into the seven values the balance needs (docs/calculations.md).
import { clamp, D } from '../numbers.js';
import { densityFromOrganicMatter, newestValues, organicMatterFromCarbon, requireSoilValues } from '../soil-values.js';
import type { BalanceSoilAnalysis } from './inputs.js';

export interface CombinedSoil {
  b_soiltype_agr: string;
  b_gwl_class: string;
}

// In the order the reference names them when they are missing.
const REQUIRED = ['b_soiltype_agr', 'a_n_rt', 'a_c_of', 'a_cn_fr', 'a_density_sa', 'a_som_loi', 'b_gwl_class'] as const;

/** The most recent value of each parameter (undated analyses last), gaps estimated; fails when one stays missing. */
export function combineSoil(analyses: BalanceSoilAnalysis[], fieldId: string): CombinedSoil {
  const newest = newestValues(analyses, REQUIRED, (analysis, name) => analysis.parameters[name]);
  const numeric = (name: (typeof REQUIRED)[number]) => {
    const found = newest[name];
    return found === undefined ? undefined : new D(found.value);
  };
  const soilType = newest.b_soiltype_agr?.value as string | undefined;
  const gwlClass = newest.b_gwl_class?.value as string | undefined;
  const nTotal = numeric('a_n_rt');
  let carbon = numeric('a_c_of');
  let organicMatter = numeric('a_som_loi');
  let cnRatio = numeric('a_cn_fr');
  let density = numeric('a_density_sa');
  if (carbon === undefined && organicMatter !== undefined) carbon = clamp(organicMatter.times(0.5).times(10), 0.1, 600);
  if (organicMatter === undefined && carbon !== undefined) organicMatter = organicMatterFromCarbon(carbon);
  if (cnRatio === undefined && carbon !== undefined && nTotal !== undefined && !nTotal.isZero())
    cnRatio = clamp(carbon.div(nTotal.div(1000)), 5, 40);
  if (density === undefined && organicMatter !== undefined && soilType !== undefined)
    density = densityFromOrganicMatter(organicMatter, soilType);

  // In REQUIRED's order: the failure names the missing ones in this order.
  const present = {
    b_soiltype_agr: soilType,
    a_n_rt: nTotal,
    a_c_of: carbon,
    a_cn_fr: cnRatio,
    a_density_sa: density,
    a_som_loi: organicMatter,
    b_gwl_class: gwlClass,
  };
  requireSoilValues(present, fieldId);
  return { b_soiltype_agr: present.b_soiltype_agr, b_gwl_class: present.b_gwl_class };
}
