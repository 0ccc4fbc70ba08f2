// The constants of the organic-matter balance (docs/calculations.md), facts from the reference
// (nmi-agro/fdm, fdm-calculator 0.17.1). Per crop (b_lu_eom, b_lu_eom_residue, b_lu_croprotation) and per
// product (p_eom, p_type) the values are catalogue columns; the soil estimates are shared (../soil-values.ts).
import { D } from '../numbers.js';

const AVERAGE_YEARLY_TEMPERATURE_C = 9.3;
const REFERENCE_TEMPERATURE_C = 13;

export const DEGRADATION = {
  /** 2^((9.3 − 13) / 10) = 0.77378249677119495252 to 20 digits. */
  temperatureCorrection: new D(2).pow(new D(AVERAGE_YEARLY_TEMPERATURE_C).minus(REFERENCE_TEMPERATURE_C).div(10)),
  /** The yearly rate is rateIntercept + rateSlopeLnSom × ln(organic matter %). */
  rateIntercept: 0.038228,
  rateSlopeLnSom: -0.008934,
  /** g/cm³ to kg/m³. */
  densityFactor: 1000,
  /** Soil depth in cm: grassland when a cultivation of a grassland crop group is selected. */
  depthCm: { grassland: 10, arable: 30 },
  grasslandCropGroups: new Set(['grass']),
  /** kg OM/ha/yr */
  annualMin: 0,
  annualMax: 3500,
  /** The timeframe's length in years is its days / 365, leap years included. */
  daysPerYear: 365,
} as const;
