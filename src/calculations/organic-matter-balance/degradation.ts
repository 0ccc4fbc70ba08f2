// The soil organic matter decomposed in the timeframe, kg OM/ha, negative (docs/calculations.md): an annual
// rate from organic matter, bulk density, depth and temperature, times the timeframe's length in years.
import { daysBetween, type Timeframe } from '../dates.js';
import { clamp, D, type Dec, ZERO } from '../numbers.js';
import { DEGRADATION } from './constants.js';
import type { OrganicMatterCultivation } from './inputs.js';
import type { OrganicMatterSoil } from './soil.js';

/** One cultivation of a grassland crop group anywhere in the timeframe makes the whole field grassland. */
export const isGrassland = (cultivations: OrganicMatterCultivation[]): boolean =>
  cultivations.some((c) => DEGRADATION.grasslandCropGroups.has(c.crop.b_lu_croprotation));

/** kg OM/ha/yr, within 0–3500; 0 when organic matter is 0 (or the logarithmic rate turns negative, above about 72 %). */
export function annualDegradation({ som, density }: OrganicMatterSoil, grassland: boolean): Dec {
  if (som.lte(0)) return ZERO;
  const depth = grassland ? DEGRADATION.depthCm.grassland : DEGRADATION.depthCm.arable;
  const rate = som.ln().times(DEGRADATION.rateSlopeLnSom).plus(DEGRADATION.rateIntercept);
  const annual = som.times(depth).times(density.times(DEGRADATION.densityFactor)).times(rate).times(DEGRADATION.temperatureCorrection);
  return clamp(annual, DEGRADATION.annualMin, DEGRADATION.annualMax);
}

/** (days + 1) / 365 of the requested timeframe, never the field's own period: 2024 is 366/365. */
export const yearsOf = ({ start, end }: Timeframe): Dec => new D(daysBetween(end, start) + 1).div(DEGRADATION.daysPerYear);

export const degradation = (soil: OrganicMatterSoil, cultivations: OrganicMatterCultivation[], timeframe: Timeframe): Dec =>
  annualDegradation(soil, isGrassland(cultivations)).times(yearsOf(timeframe)).neg();
