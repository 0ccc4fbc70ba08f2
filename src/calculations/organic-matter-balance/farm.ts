// The organic-matter balance of a farm (docs/calculations.md): supply and degradation as means of the rounded
// field totals weighted by area, and the balance as their sum.
import { NO_FIELDS_MESSAGE, type FieldResult } from '../field-result.js';
import { D, type Dec, roundOutput, sum, ZERO } from '../numbers.js';
import type { OrganicMatterBalance } from './field.js';

export type OrganicMatterFieldResult = FieldResult<OrganicMatterBalance>;

export interface FarmOrganicMatterBalance {
  balance: number;
  supply: number;
  degradation: number;
  fields: OrganicMatterFieldResult[];
  hasErrors: boolean;
  fieldErrorMessages: string[];
  errorMessage?: string;
}

/**
 * Fields ordered by area, largest first. Only fields with a result that are not buffer strips count; the
 * balance is rounded from the two unrounded means, so it may differ by 1 from the mean of the field balances.
 */
export function farmOrganicMatterBalance(results: OrganicMatterFieldResult[]): FarmOrganicMatterBalance {
  const fields = [...results].sort((a, b) => b.b_area - a.b_area);
  const fieldErrorMessages = fields.flatMap((f) => ('errorMessage' in f ? [f.errorMessage] : []));
  if (fields.length === 0) {
    return {
      balance: 0,
      supply: 0,
      degradation: 0,
      fields,
      hasErrors: true,
      fieldErrorMessages: [NO_FIELDS_MESSAGE],
      errorMessage: NO_FIELDS_MESSAGE,
    };
  }
  const counted = fields.flatMap((f) => (f.balance !== null && !f.b_bufferstrip ? [{ area: new D(f.b_area), balance: f.balance }] : []));
  const area = sum(counted.map((f) => f.area));
  const mean = (figure: (b: OrganicMatterBalance) => number): Dec =>
    area.isZero() ? ZERO : sum(counted.map((f) => f.area.times(figure(f.balance)))).div(area);
  const supply = mean((b) => b.supply.total);
  const degradation = mean((b) => b.degradation.total);
  return {
    balance: roundOutput(supply.plus(degradation)),
    supply: roundOutput(supply),
    degradation: roundOutput(degradation),
    fields,
    hasErrors: fieldErrorMessages.length > 0,
    fieldErrorMessages,
  };
}
