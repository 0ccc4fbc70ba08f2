// Hard deletes in the documented cascade order (docs/api.md, Deletes and cascades), set-based so that a farm with
// thousands of fields is still a handful of statements. Run inside a transaction.
// Records the reference keeps apart (acquiring, discarding, starting, ending, sampling,
// harvestable) are columns of one row here, so their steps fall together.
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';

/** `ids` selects b_lu values. */
export async function deleteCultivations(tx: Database, ids: SQL): Promise<void> {
  // 1–3. harvest analyses, harvestable sampling and harvesting records
  await tx.execute(sql`delete from harvests where b_lu in (${ids})`);
  // 4–6. ending record, starting record and the cultivation
  await tx.execute(sql`delete from cultivations where b_lu in (${ids})`);
}

/** `ids` selects b_id values. */
export async function deleteFields(tx: Database, ids: SQL): Promise<void> {
  // 1. all cultivations of the fields, each through the cultivation cascade
  await deleteCultivations(tx, sql`select b_lu from cultivations where b_id in (${ids})`);
  // 2–3. soil sampling and soil analysis records
  await tx.execute(sql`delete from soil_analyses where b_id in (${ids})`);
  // fertilizer applications on the fields
  await tx.execute(sql`delete from fertilizer_applications where b_id in (${ids})`);
  // 4–6. acquiring and discarding records and the field (roles belong to the farm)
  await tx.execute(sql`delete from fields where b_id in (${ids})`);
}

export async function deleteFarmCascade(tx: Database, farmId: string): Promise<void> {
  // The farm's change feed goes with it (migration 0009): its triggers need not write tombstones for the
  // records below, which a large farm would make costly. Set for this transaction only.
  await tx.execute(sql`select set_config('akker.deleting_farm', ${farmId}, true)`);
  // 1. all fields of the farm, each through the field cascade
  await deleteFields(tx, sql`select b_id from fields where b_id_farm = ${farmId}`);
  // 2–3. fertilizer acquiring records (farms use catalogue fertilizers only: nothing custom to pick)
  await tx.execute(sql`delete from farm_fertilizers where b_id_farm = ${farmId}`);
  // 4. derogation records; with them the farm's grazing intentions and organic certifications
  await tx.execute(sql`delete from derogations where b_id_farm = ${farmId}`);
  await tx.execute(sql`delete from grazing_intentions where b_id_farm = ${farmId}`);
  await tx.execute(sql`delete from organic_certifications where b_id_farm = ${farmId}`);
  // 5. authorization roles of the farm: people's, organisations' and those waiting for a sign-up
  await tx.execute(sql`delete from farm_access where b_id_farm = ${farmId}`);
  await tx.execute(sql`delete from organisation_farm_access where b_id_farm = ${farmId}`);
  await tx.execute(sql`delete from pending_farm_access where b_id_farm = ${farmId}`);
  // 6. the farm record
  await tx.execute(sql`delete from farms where b_id_farm = ${farmId}`);
}
