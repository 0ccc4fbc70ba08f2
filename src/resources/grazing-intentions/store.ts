// Grazing intention queries: one row per farm and year.
import { and, eq, ne } from 'drizzle-orm';
import type { AuditAction } from '../../access/audit.js';
import type { Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { selectPage, type PageQuery, type PageGate } from '../../db/paging.js';
import { grazingIntentions } from '../../db/schema.js';
import { recordColumns } from '../../db/records.js';
import type { GrazingIntention } from './schemas.js';

const columns = recordColumns(grazingIntentions);

const ofYear = (farmId: string, year: number) =>
  and(eq(grazingIntentions.b_id_farm, farmId), eq(grazingIntentions.b_grazing_intention_year, year));

/** The farm's grazing intentions, earliest year first. */
export function listGrazingIntentions(db: Database, farmId: string, page: PageQuery, gate?: PageGate) {
  const where = eq(grazingIntentions.b_id_farm, farmId);
  return selectPage(db, grazingIntentions, columns, where, [grazingIntentions.b_grazing_intention_year], page, undefined, gate);
}

/**
 * Sets the intention for `year`. `change` says what happened: created, updated, or nothing (the same
 * intention was stored already, and its updated_at stays).
 */
export async function setGrazingIntention(
  tx: Database,
  farmId: string,
  year: number,
  intention: boolean,
): Promise<{ grazingIntention: GrazingIntention; change: AuditAction | null }> {
  const [inserted] = await tx
    .insert(grazingIntentions)
    .values({ b_id_farm: farmId, b_grazing_intention_year: year, b_grazing_intention: intention })
    .onConflictDoNothing()
    .returning(columns);
  if (inserted) return { grazingIntention: inserted, change: 'create' };
  const [updated] = await tx
    .update(grazingIntentions)
    .set({ b_grazing_intention: intention })
    .where(and(ofYear(farmId, year), ne(grazingIntentions.b_grazing_intention, intention)))
    .returning(columns);
  if (updated) return { grazingIntention: updated, change: 'update' };
  // Neither inserted nor changed: the row is there, as it was.
  const stored = await tx.select(columns).from(grazingIntentions).where(ofYear(farmId, year));
  return { grazingIntention: firstRow(stored, 'select of the grazing intention'), change: null };
}
