// Derogation queries: one row per farm and year.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { selectPage, type PageQuery, type PageGate } from '../../db/paging.js';
import { derogations } from '../../db/schema.js';
import { recordColumns } from '../../db/records.js';
import { notFound } from '../../core/domain-errors.js';
import { assertUnchanged, type Precondition } from '../../core/entity-tags.js';
import type { Derogation } from './schemas.js';

const columns = recordColumns(derogations);

const ofYear = (farmId: string, year: number) => and(eq(derogations.b_id_farm, farmId), eq(derogations.b_derogation_year, year));

async function readDerogation(db: Database, farmId: string, year: number): Promise<Derogation | undefined> {
  const [row] = await db.select(columns).from(derogations).where(ofYear(farmId, year));
  return row;
}

/** The farm's derogation years, earliest first. */
export function listDerogations(db: Database, farmId: string, page: PageQuery, gate?: PageGate) {
  return selectPage(db, derogations, columns, eq(derogations.b_id_farm, farmId), [derogations.b_derogation_year], page, undefined, gate);
}

/** Records the derogation for `year`, unless the farm holds it already; `created` says which. */
export async function holdDerogation(tx: Database, farmId: string, year: number): Promise<{ derogation: Derogation; created: boolean }> {
  const [inserted] = await tx
    .insert(derogations)
    .values({ b_id_farm: farmId, b_derogation_year: year })
    .onConflictDoNothing()
    .returning(columns);
  if (inserted) return { derogation: inserted, created: true };
  // The insert met the row that is there.
  const stored = await tx.select(columns).from(derogations).where(ofYear(farmId, year));
  return { derogation: firstRow(stored, 'select of the derogation'), created: false };
}

/** Removes the derogation for `year`; 404 when the farm does not hold it. */
export async function releaseDerogation(tx: Database, farmId: string, year: number, precondition?: Precondition): Promise<void> {
  const stored = await readDerogation(tx, farmId, year);
  if (!stored) throw notFound(`The farm holds no derogation for ${year}.`);
  await assertUnchanged('derogation', precondition, async () => stored);
  await tx.delete(derogations).where(ofYear(farmId, year));
}
