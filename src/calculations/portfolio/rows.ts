// A portfolio page's rows: each farm's answer of its farm endpoint without the per-field list, or, for a farm
// that could not be calculated, why; a farm that fails never fails the page.
import { DomainError } from '../../core/domain-errors.js';
import type { FarmRole } from '../../db/schema.js';
import type { FarmOutcome } from '../farms.js';

/** A farm of the page as the organisation's farm list gives it. */
export interface PortfolioFarm {
  b_id_farm: string;
  b_name_farm: string;
  role: FarmRole;
}

export interface RowError {
  code: string;
  detail: string;
}

export type PortfolioRow<R> = PortfolioFarm & ({ result: R } | { error: RowError });

/** A farm endpoint's answer without its `fields`: every other member, with the same value. */
export function withoutFields<R extends { fields: unknown }>(answer: R): Omit<R, 'fields'> {
  const { fields: _perField, ...rest } = answer;
  return rest;
}

/**
 * The rows of `farms` from `outcomes`. A failure the farm endpoint would answer with a problem has that
 * problem's code and detail; anything unforeseen is `internal-error`, handed to `unforeseen` (which logs it)
 * for the error_id its detail quotes.
 */
export function portfolioRows<R>(
  farms: readonly PortfolioFarm[],
  outcomes: Map<string, FarmOutcome<R>>,
  unforeseen: (farmId: string, failure: unknown) => string,
): PortfolioRow<R>[] {
  return farms.map(({ b_id_farm, b_name_farm, role }) => {
    const farm = { b_id_farm, b_name_farm, role };
    const outcome = outcomes.get(b_id_farm);
    if (outcome !== undefined && 'answer' in outcome) return { ...farm, result: outcome.answer };
    const failure = outcome?.failure;
    if (failure instanceof DomainError) return { ...farm, error: { code: failure.code, detail: failure.detail } };
    const errorId = unforeseen(b_id_farm, failure);
    return {
      ...farm,
      error: {
        code: 'internal-error',
        detail: `This farm's stored records could not be calculated. Quote the error_id ${errorId} when you report it.`,
      },
    };
  });
}
