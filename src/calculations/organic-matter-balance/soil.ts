// The two soil values the degradation needs, from a field's analyses (docs/calculations.md).
import { D, type Dec } from '../numbers.js';
import { densityFromOrganicMatter, newestValues, organicMatterFromCarbon, requireSoilValues } from '../soil-values.js';
import type { OrganicMatterField } from './inputs.js';

export interface OrganicMatterSoil {
  /** Organic matter, %. */
  som: Dec;
  /** Bulk density, g/cm³. */
  density: Dec;
}

// The reference uses each estimate as a binary double; so does this (it moves at most the 17th digit).
const asDouble = (value: Dec): Dec => new D(value.toNumber());

/**
 * Organic matter (measured, else from organic carbon) and bulk density (measured, else from organic matter
 * and soil type). Throws FieldCalculationError when organic matter, density or soil type stays missing: the
 * soil type is required even when the density is measured, as in the reference.
 */
export function organicMatterSoil(field: Pick<OrganicMatterField, 'b_id' | 'soilAnalyses'>): OrganicMatterSoil {
  const parameters = ['a_som_loi', 'a_c_of', 'a_density_sa', 'b_soiltype_agr'] as const;
  const newest = newestValues(field.soilAnalyses, parameters, (analysis, name) => analysis.parameters[name]);
  const numeric = (name: (typeof parameters)[number]) => (newest[name] === undefined ? undefined : new D(newest[name].value));
  const soilType = newest.b_soiltype_agr?.value as string | undefined;
  const carbon = numeric('a_c_of');
  let som = numeric('a_som_loi');
  let density = numeric('a_density_sa');
  if (som === undefined && carbon !== undefined) som = asDouble(organicMatterFromCarbon(carbon));
  if (density === undefined && som !== undefined && soilType !== undefined) density = asDouble(densityFromOrganicMatter(som, soilType));

  // In the order the reference names the missing ones.
  const present = { a_som_loi: som, a_density_sa: density, b_soiltype_agr: soilType };
  requireSoilValues(present, field.b_id);
  return { som: present.a_som_loi, density: present.a_density_sa };
}
