// Target N surplus for the field-local timeframe (docs/calculations.md).
import { targetFor } from '../constants.js';
import { daysBetween, type Timeframe } from '../dates.js';
import { D, type Dec, ZERO } from '../numbers.js';
import { FieldCalculationError, type BalanceCultivation } from './inputs.js';
import { isGrass } from './land-use.js';

export function target(soilType: string, gwlClass: string, cultivations: BalanceCultivation[], local: Timeframe): Dec {
  const row = targetFor(soilType, gwlClass);
  if (!row)
    throw new FieldCalculationError(
      `Invalid or missing soil type: ${soilType}`,
      'Correct b_soiltype_agr and b_gwl_class in the soil analysis.',
    );
  const annual = cultivations.some(isGrass) ? row.target_grassland : row.target_arable;
  const days = daysBetween(local.end, local.start);
  return days <= 0 ? ZERO : new D(annual).times(days + 1).div(365);
}
