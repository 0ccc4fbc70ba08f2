// One page of a portfolio calculation: the farms of the organisation's page that its work allows, calculated a
// run of farms at a time (each run's inputs read once for all its farms, in one snapshot), and each farm's row.
import type { Database } from '../../db/client.js';
import type { FarmOutcome } from '../farms.js';
import { portfolioRows, type PortfolioFarm, type PortfolioRow } from './rows.js';
import { farmsWithinBudget, fieldCounts, runsWithin } from './work.js';

/** Calculates the farms `farmIds`, reading each input once for all of them. */
export type FarmsCalculation<R> = (farmIds: readonly string[]) => Promise<Map<string, FarmOutcome<R>>>;

/**
 * The fields of the farms whose inputs are read (in one snapshot) and calculated together. A whole page's
 * inputs, read at once, lived through the calculation of every farm and so into V8's old generation, which
 * then grew by their size each page; a run's die young. Between runs the database (the embedded one's one
 * thread) serves other requests.
 */
export const RUN_FIELDS = 100;

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
  const counts = await fieldCounts(
    db,
    farms.map((farm) => farm.b_id_farm),
  );
  const taken = counts.slice(0, farmsWithinBudget(counts));
  const rows: PortfolioRow<R>[] = [];
  for (const [start, end] of runsWithin(taken, RUN_FIELDS)) {
    const run = farms.slice(start, end);
    rows.push(...portfolioRows(run, await calculate(run.map((farm) => farm.b_id_farm)), unforeseen));
  }
  return rows;
}
