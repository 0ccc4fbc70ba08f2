// The usage norms of one field for a year: each norm, its filling and the room left (docs/calculations.md).
import { D, type Dec } from '../numbers.js';
import { isFailure, type NormFailure, type NormOutcome } from './errors.js';
import { manureFilling, renureFilling } from './filling-manure.js';
import { nitrogenFilling } from './filling-nitrogen.js';
import { phosphateFilling } from './filling-phosphate.js';
import type { FillingOutcome } from './filling.js';
import type { NormsFarm, NormsField } from './inputs.js';
import { mainCrop } from './main-crop.js';
import { manureNorm, renureNorm } from './manure-norm.js';
import { nitrogenNorm } from './nitrogen-norm.js';
import { phosphateNorm } from './phosphate-norm.js';
import { applicationsOfYear, cultivationsForFillings, cultivationsForValues, farmYear, soilPhosphate } from './records.js';
import type { NormYear } from './tables.js';

export type NormName = 'nitrogen' | 'manure' | 'phosphate' | 'renure';

/** One thing per norm; the Renure norm exists from 2026. */
export type PerNorm<T> = { nitrogen: T; manure: T; phosphate: T; renure?: T };

/** The same per norm, `of` applied to each. */
export const mapNorms = <A, B>(per: PerNorm<A>, of: (value: A, name: NormName) => B): PerNorm<B> => ({
  nitrogen: of(per.nitrogen, 'nitrogen'),
  manure: of(per.manure, 'manure'),
  phosphate: of(per.phosphate, 'phosphate'),
  ...(per.renure !== undefined && { renure: of(per.renure, 'renure') }),
});

/** Each norm's value with its name, in the order nitrogen, manure, phosphate, Renure. */
export const namedNorms = <T>(per: PerNorm<T>) => Object.values(mapNorms(per, (value, name) => ({ name, value })));

/** The norms of a year, by name: the Renure norm exists from 2026. */
export const normsOf = (year: NormYear): PerNorm<NormName> => ({
  nitrogen: 'nitrogen',
  manure: 'manure',
  phosphate: 'phosphate',
  ...(year >= 2026 && { renure: 'renure' }),
});

export interface NormResult {
  norm: NormOutcome;
  filling: FillingOutcome;
  /** norm − filling, kg/ha; undefined when either failed. */
  room: Dec | undefined;
}

export interface FieldNorms {
  b_id: string;
  b_area: number;
  norms: PerNorm<NormResult>;
}

const result = (norm: NormOutcome, filling: FillingOutcome): NormResult => ({
  norm,
  filling,
  room: isFailure(norm) || isFailure(filling) ? undefined : new D(norm.normValue).minus(filling.normFilling),
});

export function fieldNorms(field: NormsField, farm: NormsFarm, year: NormYear): FieldNorms {
  const facts = farmYear(farm, year);
  const cultivations = cultivationsForValues(field, year);
  const main = mainCrop(cultivations, year);
  const applications = applicationsOfYear(field, year);

  const phosphate = phosphateNorm(field.b_bufferstrip, soilPhosphate(field, year), main, year);
  const renure = renureNorm(field, facts);
  return {
    b_id: field.b_id,
    b_area: field.b_area,
    norms: {
      nitrogen: result(
        nitrogenNorm(field, facts, cultivations, main),
        nitrogenFilling(field.b_soil_region, applications, cultivationsForFillings(field, year), facts),
      ),
      manure: result(manureNorm(field, facts), manureFilling(applications, year)),
      // A field without a phosphate norm gets no discount for organic-rich fertilizers.
      phosphate: result(phosphate, phosphateFilling(applications, facts, isFailure(phosphate) ? 0 : phosphate.normValue)),
      ...(renure && { renure: result(renure, renureFilling(applications, year)) }),
    },
  };
}

/** The first failure of a field's norms and fillings, in the order nitrogen, manure, phosphate, Renure. */
export function firstFailure(field: FieldNorms): NormFailure | undefined {
  const results = Object.values(field.norms);
  return results.map((r) => r.norm).find(isFailure) ?? results.map((r) => r.filling).find(isFailure);
}
