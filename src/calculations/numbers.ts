// Decimal arithmetic for the nitrogen balance (docs/calculations.md): 20 significant digits,
// and every output rounded to an integer half away from zero (−2.5 → −3), with −0 as 0.
import { Decimal } from 'decimal.js';

export const D = Decimal.clone({ precision: 20, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

export const ZERO = new D(0);

export function roundOutput(value: Dec): number {
  const rounded = value.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
  return rounded === 0 ? 0 : rounded;
}

export const sum = (values: Dec[]): Dec => values.reduce((total, value) => total.plus(value), ZERO);

export const clamp = (value: Dec, min: number, max: number): Dec => D.min(D.max(value, min), max);

/** A catalogue or record value; null counts as 0. */
export const dec = (value: number | null | undefined): Dec => new D(value ?? 0);
