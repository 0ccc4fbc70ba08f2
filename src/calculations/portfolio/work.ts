// How many farms of a page a portfolio calculation takes on: a page ends early once its farms would hold more
// than MAX_PAGE_FIELDS fields, never before its first farm (docs/calculations.md "Portfolio calculations").
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';

export const MAX_PAGE_FIELDS = 5_000;

/**
 * The number of fields of each farm of `farmIds`, in their order, each counted only up to one past the page's
 * budget: one statement, whose cost is bounded by the budget times the number of farms.
 */
export async function fieldCounts(db: Database, farmIds: readonly string[]): Promise<number[]> {
  const rows = await queryRows<{ fields: number }>(
    db,
    sql`select (select count(*)::int from (select 1 from fields where fields.b_id_farm = page.b_id_farm limit ${MAX_PAGE_FIELDS + 1}) as capped) as fields
        from json_array_elements_text(${JSON.stringify(farmIds)}::json) with ordinality as page(b_id_farm, n)
        order by page.n`,
  );
  return rows.map((row) => row.fields);
}

/** How many of the farms with `counts` fields, from the first, fit in `budget` fields: at least one. */
export function farmsWithinBudget(counts: readonly number[], budget = MAX_PAGE_FIELDS): number {
  let fields = 0;
  for (const [index, count] of counts.entries()) {
    fields += count;
    if (fields > budget && index > 0) return index;
  }
  return counts.length;
}

/**
 * The farms with `counts` fields cut, in their order, into runs of at most `budget` fields (a farm of more
 * is a run of its own): each run's first farm and the farm after its last.
 */
export function runsWithin(counts: readonly number[], budget: number): Array<[start: number, end: number]> {
  const runs: Array<[number, number]> = [];
  for (let start = 0; start < counts.length;) {
    const end = start + farmsWithinBudget(counts.slice(start), budget);
    runs.push([start, end]);
    start = end;
  }
  return runs;
}
