// A field's soil values from its analyses (docs/calculations.md), one rule for every calculation and for
// GET /api/fields/{b_id}/current-soil-data: per parameter the newest value by sampling date, undated analyses
// last, on equal dates the later-recorded analysis; and the estimates that fill a gap from another value.
import { SANDY_SOILS } from './constants.js';
import { FieldCalculationError } from './nitrogen-balance/inputs.js';
import { clamp, D, type Dec } from './numbers.js';

export type SoilValue = number | string;

export interface NewestValue<A, V extends SoilValue = SoilValue> {
  value: V;
  /** The analysis the value comes from. */
  analysis: A;
}

const newestSampledFirst = (a: { b_sampling_date: string | null }, b: { b_sampling_date: string | null }) => {
  if (a.b_sampling_date === b.b_sampling_date) return 0;
  if (a.b_sampling_date === null) return 1;
  if (b.b_sampling_date === null) return -1;
  return a.b_sampling_date < b.b_sampling_date ? 1 : -1;
};

/**
 * For each of `parameters` that has a value, the newest one and its analysis; 0 is a value, null and
 * undefined are not. The values may come from different analyses. `analyses` must be given the most
 * recently recorded first (inputs.ts `recordedLatestFirst`): the sort keeps that order among equal dates.
 */
export function newestValues<A extends { b_sampling_date: string | null }, P extends string, V extends SoilValue>(
  analyses: readonly A[],
  parameters: readonly P[],
  valueOf: (analysis: A, parameter: P) => V | null | undefined,
): Partial<Record<P, NewestValue<A, V>>> {
  const ordered = [...analyses].sort(newestSampledFirst);
  const newest: Partial<Record<P, NewestValue<A, V>>> = {};
  for (const parameter of parameters) {
    for (const analysis of ordered) {
      const value = valueOf(analysis, parameter);
      if (value !== null && value !== undefined) {
        newest[parameter] = { value, analysis };
        break;
      }
    }
  }
  return newest;
}

/** Organic matter (%) from organic carbon (g C/kg), within 0.5–75 %. */
export const organicMatterFromCarbon = (carbon: Dec): Dec => clamp(carbon.div(10).div(0.5), 0.5, 75);

/** Bulk density (g/cm³) from organic matter (%) and soil type, within 0.5–3 g/cm³. */
export function densityFromOrganicMatter(organicMatter: Dec, soilType: string): Dec {
  const som = organicMatter;
  const estimate = SANDY_SOILS.has(soilType)
    ? new D(1).div(new D(0.02525).times(som).plus(0.6541))
    : new D(6.7e-7)
        .times(som.pow(4))
        .minus(new D(7.792e-5).times(som.pow(3)))
        .plus(new D(3.14712e-3).times(som.pow(2)))
        .minus(new D(0.06039523).times(som))
        .plus(1.33932206);
  return clamp(estimate, 0.5, 3);
}

/**
 * Fails the field unless every one of the soil values a calculation needs is there; the message names the
 * missing ones in the order of `values`' members, which is the reference's.
 */
export function requireSoilValues<T extends Record<string, unknown>>(
  values: T,
  fieldId: string,
): asserts values is { [K in keyof T]: Exclude<T[K], undefined> } {
  const missing = Object.keys(values).filter((name) => values[name] === undefined);
  if (missing.length > 0) {
    throw new FieldCalculationError(
      `Missing required soil parameters: ${missing.join(', ')}`,
      `Add a soil analysis with them, sampled within the timeframe or without a sampling date: POST /api/fields/${fieldId}/soil-analyses.`,
    );
  }
}
