// One page of a portfolio calculation: the farms of the organisation's page that its work allows, their
// inputs read once for all of them, and each farm's row.
import type { Database } from '../../db/client.js';
import type { FarmOutcome } from '../farms.js';
import { portfolioRows, type PortfolioFarm, type PortfolioRow } from './rows.js';
import { farmsWithinBudget, fieldCounts } from './work.js';

/** Calculates the farms `farmIds`, reading each input once for all of them. */
export type FarmsCalculation<R> = (farmIds: readonly string[]) => Promise<Map<string, FarmOutcome<R>>>;

/**
 * The rows of the first farms of `farms` (the organisation's page, in its order) that the page's work allows:
 * at least one; `unforeseen` logs a farm's unexpected failure and gives its error_id.
 */
export async function portfolioPage<R>(
  db: Database,
  farms: readonly PortfolioFarm[],
  calculate: FarmsCalculation<R>,
  unforeseen: (farmId: string, failure: unknown) => string,
): Promise<PortfolioRow<R>[]> {
  if (farms.length === 0) return [];
  const taken = farms.slice(
    0,
    farmsWithinBudget(
      await fieldCounts(
        db,
        farms.map((farm) => farm.b_id_farm),
      ),
    ),
  );
  return portfolioRows(taken, await calculate(taken.map((farm) => farm.b_id_farm)), unforeseen);
}
