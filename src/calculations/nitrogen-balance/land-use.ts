// Land use class of a field from its cultivations (docs/calculations.md).
import { bareSoilCropCodes, landUseOfCropGroup, type LandUseClass } from '../constants.js';
import type { BalanceCultivation } from './inputs.js';

export function landUseClass(cultivations: BalanceCultivation[]): LandUseClass {
  const counting = cultivations.filter((c) => !bareSoilCropCodes.has(c.crop.b_lu_catalogue));
  const classes = counting.map((c) => landUseOfCropGroup.get(c.crop.b_lu_croprotation) ?? 'cropland');
  if (classes.includes('grassland')) return 'grassland';
  if (classes.includes('cropland')) return 'cropland';
  return 'bare_soil';
}

/** Cultivations growing on `date`: started, and not ended before it. */
export const activeOn = (cultivations: BalanceCultivation[], date: string) =>
  cultivations.filter((c) => c.b_lu_start <= date && (c.b_lu_end === null || c.b_lu_end >= date));

/** Grassland for the target and mineralisation: crop group grass only (clover does not count). */
export const isGrass = (c: BalanceCultivation) => c.crop.b_lu_croprotation === 'grass';
