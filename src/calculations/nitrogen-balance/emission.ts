// Emission of N (negative, kg N/ha): ammonia from fertilizers, nitrate leaching (docs/calculations.md).
import { leachingFactors, organicAmmoniaFactors, soilTypesWithGwlFactors, type LandUseClass } from '../constants.js';
import { clamp, D, dec, type Dec, ZERO } from '../numbers.js';
import { FieldCalculationError, type BalanceApplication, type BalanceCultivation } from './inputs.js';
import { activeOn, landUseClass } from './land-use.js';
import { groupApplications, groupOf } from './supply.js';

/** EF of a mineral fertilizer: the catalogue's, or estimated from its composition; within [0, 1]. */
function mineralFactor(f: BalanceApplication['fertilizer']): Dec {
  if (f.p_ef_nh3 !== null) return clamp(new D(f.p_ef_nh3), 0, 1);
  const organicN = dec(f.p_n_rt).minus(dec(f.p_no3_rt)).minus(dec(f.p_nh4_rt));
  const estimate = organicN
    .pow(2)
    .times(7.021e-5)
    .plus(dec(f.p_no3_rt).times(dec(f.p_s_rt)).times(-4.308e-5))
    .plus(dec(f.p_nh4_rt).pow(2).times(2.498e-4))
    .div(100);
  return clamp(estimate, 0, 1);
}

function organicFactor(application: BalanceApplication, cultivations: BalanceCultivation[]): Dec {
  const factors = application.p_app_method === null ? undefined : organicAmmoniaFactors.get(application.p_app_method);
  if (!factors) {
    throw new FieldCalculationError(
      `Unsupported application method ${application.p_app_method} for ${application.fertilizer.p_name_nl} (${application.p_id})`,
      `Set p_app_method of application ${application.p_app_id}: PATCH /api/fertilizer-applications/${application.p_app_id}.`,
    );
  }
  return new D(factors[landUseClass(activeOn(cultivations, application.p_app_date))]);
}

export const fertilizerAmmonia = (applications: BalanceApplication[], cultivations: BalanceCultivation[]) =>
  groupApplications(applications, (a) => {
    const amount = new D(a.p_app_amount);
    if (groupOf(a) === 'mineral') return amount.times(dec(a.fertilizer.p_n_rt)).times(mineralFactor(a.fertilizer)).div(1000).neg();
    return amount.times(dec(a.fertilizer.p_nh4_rt)).times(organicFactor(a, cultivations)).div(1000).neg();
  });

/** Share of a positive balance that leaches, by soil, groundwater class and land use (no date check). */
export function nitrateLeaching(balance: Dec, soilType: string, gwlClass: string, landUse: LandUseClass): Dec {
  if (balance.lte(0)) return ZERO;
  const factors = leachingFactors(soilType, gwlClass);
  if (!factors) {
    throw new FieldCalculationError(
      soilTypesWithGwlFactors.has(soilType)
        ? `Unknown GWL class '${gwlClass}' for sandy soil '${soilType}'`
        : `Invalid or missing soil type: ${soilType}`,
      'Correct b_soiltype_agr and b_gwl_class in the soil analysis.',
    );
  }
  const factor = landUse === 'grassland' ? factors.factor_grassland : factors.factor_cropland_or_bare_soil;
  return balance.times(factor).neg();
}
