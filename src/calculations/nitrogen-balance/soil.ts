// Combining a field's soil analyses into the seven values the balance needs (docs/calculations.md).
import { clamp, D, type Dec } from '../numbers.js';
import { SANDY_SOILS } from '../constants.js';
import { FieldCalculationError, type BalanceSoilAnalysis } from './inputs.js';

export interface CombinedSoil {
  b_soiltype_agr: string;
  b_gwl_class: string;
}

// In the order the reference names them when they are missing.
const REQUIRED = ['b_soiltype_agr', 'a_n_rt', 'a_c_of', 'a_cn_fr', 'a_density_sa', 'a_som_loi', 'b_gwl_class'] as const;

function densityEstimate(som: Dec, soilType: string): Dec {
  if (SANDY_SOILS.has(soilType)) return new D(1).div(new D(0.02525).times(som).plus(0.6541));
  return new D(6.7e-7)
    .times(som.pow(4))
    .minus(new D(7.792e-5).times(som.pow(3)))
    .plus(new D(3.14712e-3).times(som.pow(2)))
    .minus(new D(0.06039523).times(som))
    .plus(1.33932206);
}

/** The most recent value of each parameter (undated analyses last), gaps estimated; fails when one stays missing. */
export function combineSoil(analyses: BalanceSoilAnalysis[], fieldId: string): CombinedSoil {
  const ordered = [...analyses].sort((a, b) => {
    if (a.b_sampling_date === b.b_sampling_date) return 0;
    if (a.b_sampling_date === null) return 1;
    if (b.b_sampling_date === null) return -1;
    return a.b_sampling_date < b.b_sampling_date ? 1 : -1;
  });
  // 0 is a value: only undefined and null are missing.
  const first = (name: string) =>
    ordered.map((analysis) => analysis.parameters[name]).find((value) => value !== undefined && value !== null);
  const numeric = (name: string) => {
    const value = first(name);
    return value === undefined ? undefined : new D(value);
  };
  const soilType = first('b_soiltype_agr') as string | undefined;
  const gwlClass = first('b_gwl_class') as string | undefined;
  const nTotal = numeric('a_n_rt');
  let carbon = numeric('a_c_of');
  let organicMatter = numeric('a_som_loi');
  let cnRatio = numeric('a_cn_fr');
  let density = numeric('a_density_sa');
  if (carbon === undefined && organicMatter !== undefined) carbon = clamp(organicMatter.times(0.5).times(10), 0.1, 600);
  if (organicMatter === undefined && carbon !== undefined) organicMatter = clamp(carbon.div(10).div(0.5), 0.5, 75);
  if (cnRatio === undefined && carbon !== undefined && nTotal !== undefined && !nTotal.isZero())
    cnRatio = clamp(carbon.div(nTotal.div(1000)), 5, 40);
  if (density === undefined && organicMatter !== undefined && soilType !== undefined)
    density = clamp(densityEstimate(organicMatter, soilType), 0.5, 3);

  const present = {
    b_soiltype_agr: soilType,
    a_n_rt: nTotal,
    a_c_of: carbon,
    a_cn_fr: cnRatio,
    a_density_sa: density,
    a_som_loi: organicMatter,
    b_gwl_class: gwlClass,
  };
  const missing = REQUIRED.filter((name) => present[name] === undefined);
  if (missing.length > 0) {
    throw new FieldCalculationError(
      `Missing required soil parameters: ${missing.join(', ')}`,
      `Add a soil analysis with them, sampled within the timeframe or without a sampling date: POST /api/fields/${fieldId}/soil-analyses.`,
    );
  }
  return { b_soiltype_agr: soilType!, b_gwl_class: gwlClass! };
}
