// Loads the fertilizers held by the farm of a field, for the dose recommendation in amounts of them.
import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { farmFertilizers, fields } from '../../db/schema.js';
import { withFertilizer } from '../inputs.js';
import type { FarmProduct } from '../norms/product-room.js';

/** In the order the farm acquired them. */
export async function loadFarmFertilizersOfField(db: Database, fieldId: string): Promise<FarmProduct[]> {
  const rows = await db
    .select({ p_id: farmFertilizers.p_id, p_id_catalogue: farmFertilizers.p_id_catalogue })
    .from(farmFertilizers)
    .innerJoin(fields, eq(fields.b_id_farm, farmFertilizers.b_id_farm))
    .where(eq(fields.b_id, fieldId))
    .orderBy(asc(farmFertilizers.created_at), asc(farmFertilizers.p_id));
  return rows.map(withFertilizer);
}
